import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';
import { run } from './shell.ts';

export type Probe = { ok: true } | { ok: false; reason: string };

export async function probePostgres(url: string, timeoutMs = 3000): Promise<Probe> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A server dying mid-probe emits 'error' on the client; unhandled, it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: errorMessage(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

// A raw socket keeps ioredis out of this package; RESP answers a bare inline PING with +PONG.
export function probeRedis(port: number, host = '127.0.0.1', timeoutMs = 2000): Promise<Probe> {
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect({ host, port });
    const finish = (probe: Probe) => {
      socket.destroy();
      resolve(probe);
    };
    socket.setTimeout(timeoutMs, () => finish({ ok: false, reason: 'timed out' }));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('error', (err) => finish({ ok: false, reason: err.message }));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (!reply.includes('\r\n')) return;
      const line = reply.split('\r\n')[0] ?? '';
      finish(line === '+PONG' ? { ok: true } : { ok: false, reason: `answered ${JSON.stringify(line)}` });
    });
    socket.on('close', () => finish({ ok: false, reason: 'closed without answering' }));
  });
}

export async function dockerAnswers(): Promise<boolean> {
  const result = await run('docker', ['info'], { timeoutMs: 20_000 });
  return result.code === 0;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but owned by someone else, which is still "running".
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // Daemons are reparented to pid 1; where pid 1 never reaps (some container inits), an exited
  // daemon lingers as a zombie that kill(pid, 0) still reports.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return errorMessage(err.errors[0]);
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
