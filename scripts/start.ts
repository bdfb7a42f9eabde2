// Starts everything on this machine: Postgres and Redis (found or started), migrations, a demo
// workspace, every service as its own process, and one gateway port serving every route.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_OPTIONS } from '../packages/config/src/node-options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = `${root}.data`;
mkdirSync(dataDir, { recursive: true });

function run(args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status})`);
  return r.stdout;
}

const backing = run(
  ['packages/localenv/src/bin.ts', '--data-dir', dataDir, '--database', 'evds'],
  process.env,
);
const env: NodeJS.ProcessEnv = { ...process.env };
for (const line of backing.trim().split('\n')) {
  const i = line.indexOf('=');
  if (i > 0) env[line.slice(0, i)] = line.slice(i + 1);
}

// The local encryption key for secrets at rest, made once and kept with the local data.
const keyFile = `${dataDir}/encryption-keys`;
if (!existsSync(keyFile))
  writeFileSync(keyFile, `local1:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
env.ENCRYPTION_KEYS ??= readFileSync(keyFile, 'utf8').trim();
env.NODE_ENV ??= 'development';
env.NODE_OPTIONS ??= SERVICE_NODE_OPTIONS;
// Each service's metrics port (its default, 9100 to 9103) on this machine only.
env.METRICS_HOST ??= '127.0.0.1';

run(['packages/db/src/bin/migrate.ts'], env);

// The demo workspace's key is shown once by the admin tool, so its answer is kept with the local data.
const demoFile = `${dataDir}/demo-workspace.json`;
if (!existsSync(demoFile)) {
  const out = run(
    [
      'services/api/src/admin.ts',
      'create-workspace',
      '--org',
      'Demo',
      '--slug',
      `demo-${randomBytes(3).toString('hex')}`,
      '--email',
      'demo@example.test',
      '--json',
    ],
    env,
  );
  writeFileSync(demoFile, out, { mode: 0o600 });
}
const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as {
  email: string;
  password: string;
  api_key: string;
};

const gatewayPort = env.GATEWAY_PORT ?? '8080';
const apiPort = env.API_PORT ?? '3000';
const ingestPort = env.INGEST_PORT ?? '3001';
const services: [string, string, NodeJS.ProcessEnv][] = [
  ['api', 'services/api/src/bin.ts', { PORT: apiPort, HOST: '127.0.0.1' }],
  ['ingest', 'services/ingest/src/bin.ts', { PORT: ingestPort, HOST: '127.0.0.1' }],
  ['delivery-worker', 'services/delivery-worker/src/bin.ts', {}],
  ['a2a-worker', 'services/a2a-worker/src/bin.ts', {}],
  [
    'gateway',
    'scripts/gateway.ts',
    {
      PORT: gatewayPort,
      API_URL: `http://127.0.0.1:${apiPort}`,
      INGEST_URL: `http://127.0.0.1:${ingestPort}`,
    },
  ],
];

const children: ChildProcess[] = [];
for (const [name, file, extra] of services) {
  const child = spawn(process.execPath, [file], {
    cwd: root,
    env: { ...env, ...extra },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited (${signal ?? code}); stopping everything`);
    stop();
  });
  children.push(child);
}

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(0), 12_000).unref();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const baseUrl = `http://127.0.0.1:${gatewayPort}`;
for (let i = 0; i < 100; i++) {
  const ok = await fetch(`${baseUrl}/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}
console.log(`
evds is running
  base url   ${baseUrl}
  login      ${demo.email} / ${demo.password}
  api key    ${demo.api_key}
  try        curl -H "Authorization: Bearer ${demo.api_key}" ${baseUrl}/api/v1/orgs
  metrics    http://127.0.0.1:9100/metrics (api), 9101 ingest, 9102 delivery-worker, 9103 a2a-worker
Ctrl-C stops every service.`);
