// evds listen: a local HTTPS receiver for development. It prints every delivery and whether its
// signature verifies with --secret (verifyWebhook, over the official standardwebhooks package), and
// answers 204. Its certificate comes from the local CA that ./scripts/start.sh makes and that the
// services it starts trust, so a webhook target pointed at it receives real, signed deliveries.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { verifyWebhook, WebhookVerificationError } from '@evds/client';
import { ensureLocalCa } from '@evds/localenv/inbox';
import { action, intOption, type Ctx } from '../context.ts';
import { createStopper } from '../stop.ts';

interface ListenOpts {
  port: number;
  host: string;
  secret?: string;
  tlsDir?: string;
}

export interface Delivery {
  type: 'delivery';
  method: string;
  path: string;
  webhook_id: string | null;
  event_type: string | null;
  /** null when no --secret was given. */
  verified: boolean | null;
  reason: string | null;
  body: string;
}

const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** Inside the workspace: the CA ./scripts/start.sh keeps under .data; anywhere else, one in the home directory. */
export function defaultTlsDir(): string {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  if (existsSync(join(root, 'pnpm-workspace.yaml'))) return join(root, '.data', 'local-ca');
  return join(homedir(), '.config', 'evds', 'local-ca');
}

export function registerListen(program: Command): void {
  program
    .command('listen')
    .description('a local HTTPS receiver that prints each delivery and checks its signature')
    .requiredOption('--port <n>', 'port to listen on (0: any free port, printed)', intOption(0))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <whsec>', "the target's signing secret (whsec_...): each delivery is verified with it")
    .option('--tls-dir <dir>', 'where the local CA and the server certificate live (made when missing)')
    .addHelpText(
      'after',
      `
TLS: the server certificate (127.0.0.1 and localhost) is signed by the local development CA in
--tls-dir, made there when missing. The default is .data/local-ca at the root of the workspace, the
CA that ./scripts/start.sh creates and that the services it starts trust (NODE_EXTRA_CA_CERTS), so
a webhook target with the URL https://127.0.0.1:<port>/... receives real deliveries. Services started
some other way must trust <tls-dir>/ca.pem themselves. No API key is needed.

Each delivery is printed with its method, path, webhook-id, event type, body and signature check
(--json: one object per line); it is answered 204.

Examples:
  $ evds listen --port 9443 --secret whsec_...
  $ evds targets create --kind webhook --name dev --url https://127.0.0.1:9443/hooks/dev
  $ evds listen --port 0 --tls-dir /tmp/evds-ca --json`,
    )
    .action(action<ListenOpts>(async (ctx, _args, opts) => listen(ctx, opts)));
}

async function listen(ctx: Ctx, opts: ListenOpts): Promise<void> {
  const dir = opts.tlsDir ?? defaultTlsDir();
  const ca = await ensureLocalCa(dir);
  const server: Server = createServer({ key: ca.server.key, cert: ca.server.cert }, (req, res) => {
    void readBody(req).then(
      (body) => {
        res.writeHead(204).end();
        const delivery = inspect(req, body, opts.secret);
        ctx.out.record(delivery, () => describe(delivery));
      },
      () => res.writeHead(413).end(),
    );
  });
  const stopper = createStopper();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `https://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  ctx.out.record({ type: 'listening', url, port, ca_file: ca.caFile }, () =>
    [
      `listening on ${url} (answers 204 to everything)`,
      `certificate from the local CA ${ca.caFile}`,
      opts.secret
        ? 'signatures are checked with the given secret'
        : 'no --secret: signatures are not checked',
    ].join('\n'),
  );
  await new Promise<void>((resolve) =>
    stopper.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  stopper.dispose();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        req.destroy();
        reject(new Error('body too large'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const header = (req: IncomingMessage, name: string): string | null => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
};

export function inspect(req: IncomingMessage, body: Buffer, secret: string | undefined): Delivery {
  let verified: boolean | null = null;
  let reason: string | null = null;
  if (secret) {
    try {
      verifyWebhook(secret, req.headers, body);
      verified = true;
    } catch (err) {
      verified = false;
      reason = err instanceof WebhookVerificationError ? err.message : `error: ${(err as Error).message}`;
    }
  }
  return {
    type: 'delivery',
    method: req.method ?? '?',
    path: req.url ?? '/',
    webhook_id: header(req, 'webhook-id'),
    event_type: header(req, 'x-event-type'),
    verified,
    reason,
    body: body.toString('utf8'),
  };
}

function describe(d: Delivery): string {
  const check =
    d.verified === null
      ? 'signature not checked (no --secret)'
      : d.verified
        ? 'signature verified'
        : `signature NOT verified (${d.reason})`;
  const head = [
    `${d.method} ${d.path}`,
    `webhook-id ${d.webhook_id ?? '-'}`,
    `type ${d.event_type ?? '-'}`,
    check,
  ];
  return `${head.join('  ')}\n${d.body}`;
}
