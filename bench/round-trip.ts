// The round-trip probe, run as its own process by bench/ceilings.ts: PINGs one Redis server and prints
// the wall and CPU microseconds per answered PING, back to back and spaced 2 ms apart.
import { createRedis } from '@evds/queue';
import { serverCpuSeconds } from './proc.ts';

const redis = createRedis(process.argv[2] ?? '', { role: 'client' });
for (let i = 0; i < 500; i++) await redis.ping();

async function measure(count: number, gapMs: number) {
  const client = process.cpuUsage();
  const server = serverCpuSeconds('redis-server');
  let wall = 0;
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    await redis.ping();
    wall += performance.now() - sent;
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
  }
  const used = process.cpuUsage(client);
  return {
    wallUs: (wall * 1000) / count,
    clientUs: (used.user + used.system) / count,
    serverUs: ((serverCpuSeconds('redis-server') - server) * 1e6) / count,
  };
}

const backToBack = await measure(10_000, 0);
const spaced = await measure(1_500, 2);
redis.disconnect();
process.stdout.write(JSON.stringify({ backToBack, spaced }) + '\n');
