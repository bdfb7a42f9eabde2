// The local inbox of development: the HTTPS receiver and its control API, both on 127.0.0.1 only,
// sharing one request log and one set of signing secrets.
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createControl } from './control.ts';
import { createReceiver, createRequestLog } from './receiver.ts';
import { createSecretRegistry } from './secrets.ts';

export const INBOX_HOST = '127.0.0.1';
export const INBOX_KEPT_REQUESTS = 200;
/** Above the ingest cap (1 MiB), so any payload the service can deliver is kept whole. */
export const INBOX_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface LocalInboxOptions {
  tls: { key: string; cert: string };
  /** 0 (the default) picks a free port. */
  port?: number;
  controlPort?: number;
  /** Where registered secrets are kept across restarts (mode 0600); in memory only without it. */
  secretsFile?: string;
}

export interface LocalInbox {
  start(): Promise<{ url: string; controlUrl: string; port: number; controlPort: number }>;
  destroy(): Promise<void>;
}

export function createLocalInbox(opts: LocalInboxOptions): LocalInbox {
  const log = createRequestLog(INBOX_KEPT_REQUESTS);
  const secrets = createSecretRegistry(opts.secretsFile);
  const receiver = createReceiver({
    tls: opts.tls,
    log,
    secrets: () => secrets.list(),
    bodyLimitBytes: INBOX_BODY_LIMIT_BYTES,
  });
  const control = createControl({ log, secrets });
  let started = false;
  return {
    async start() {
      const port = await listen(receiver, opts.port ?? 0);
      started = true;
      const controlPort = await listen(control, opts.controlPort ?? 0);
      return {
        url: `https://${INBOX_HOST}:${port}`,
        controlUrl: `http://${INBOX_HOST}:${controlPort}`,
        port,
        controlPort,
      };
    },
    async destroy() {
      if (!started) return;
      started = false;
      await Promise.all([close(receiver), close(control)]);
    },
  };
}

type Server = HttpServer | HttpsServer;

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, INBOX_HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
