import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Env } from '@evds/config';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export type ServiceName = 'api' | 'ingest' | 'delivery-worker' | 'a2a-worker' | 'dashboard';

/** The log line each service writes once it is ready, with the port for HTTP services. */
const readyMessage: Record<ServiceName, string> = {
  api: 'api listening',
  ingest: 'ingest listening',
  'delivery-worker': 'delivery worker consuming',
  'a2a-worker': 'a2a worker consuming',
  dashboard: 'dashboard listening',
};

export interface ServiceProcess {
  name: ServiceName;
  child: ChildProcess;
  /** Every JSON log line the process wrote so far. */
  logs: Record<string, unknown>[];
  /** Raw output, for searching (e.g. for leaked secrets). */
  output: string[];
  port: number;
  url: string;
  /** The metrics port (GET /metrics, /health, /live), from the service's "metrics listening" line. */
  metricsPort: number;
  metricsUrl: string;
  /** Sends a signal and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `node services/<name>/src/bin.ts` as its own process and waits for its ready line. The metrics
 * port is a free one on 127.0.0.1 unless `env` says otherwise, so replicas on one host never collide.
 */
export function spawnService(name: ServiceName, env: Env, timeoutMs = 20_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [`services/${name}/src/bin.ts`], {
    cwd: root,
    env: { PATH: process.env.PATH, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const output: string[] = [];
  let exited: Promise<number | null> | undefined;
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} not ready in ${timeoutMs} ms:\n${output.join('').slice(-3000)}`));
    }, timeoutMs);
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        logs.push(entry);
        if (entry.msg === readyMessage[name]) {
          clearTimeout(timer);
          const port = typeof entry.port === 'number' ? entry.port : 0;
          // Services open their metrics port before they report ready, so its line came first.
          const metrics = logs.find((l) => l.msg === 'metrics listening')?.port;
          const metricsPort = typeof metrics === 'number' ? metrics : 0;
          resolve({
            name,
            child,
            logs,
            output,
            port,
            url: `http://127.0.0.1:${port}`,
            metricsPort,
            metricsUrl: `http://127.0.0.1:${metricsPort}`,
            kill: (signal = 'SIGTERM') => {
              exited ??= (child.kill(signal), exit);
              return exited;
            },
          });
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${output.join('').slice(-3000)}`));
    });
  });
}
