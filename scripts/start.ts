// Starts everything on this machine: Postgres and Redis (found or started), migrations, a demo
// workspace, every service as its own process, one gateway port serving every route, the dashboard,
// and a local HTTPS inbox (certificate from a local CA under .data/) that the demo workspace's
// "Local inbox" webhook target delivers to, so a signed delivery can be seen without a public URL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serviceNodeOptions } from '../packages/config/src/node-options.ts';
import { ensureLocalCa } from '../packages/localenv/src/inbox/ca.ts';
import {
  ensureDemoTargets,
  INBOX_TARGET_NAME,
  registerInboxSecret,
  type DemoTargets,
} from './start/demo-targets.ts';
import { ensureWebAppBuilt } from './start/web-app.ts';

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
if (env.NODE_ENV === 'production') {
  console.error('start: scripts/start.sh is for local development; unset NODE_ENV=production to use it');
  process.exit(1);
}
env.NODE_ENV ??= 'development';
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
const dashboardPort = env.DASHBOARD_PORT ?? '8081';
const inboxPort = env.INBOX_PORT ?? '8443';
const inboxControlPort = env.INBOX_CONTROL_PORT ?? '8444';
const dashboardOrigin = `http://127.0.0.1:${dashboardPort}`;
const inboxControlUrl = `http://127.0.0.1:${inboxControlPort}`;
const inboxTargetUrl = `https://127.0.0.1:${inboxPort}/hooks/local-inbox`;

// The local inbox's CA, made once and kept: every service trusts it, and development lets the
// network policy reach 127.0.0.1 (the config refuses both allowances under NODE_ENV=production).
const ca = await ensureLocalCa(`${dataDir}/local-ca`);
env.NODE_EXTRA_CA_CERTS = ca.caFile;
env.NETGUARD_ALLOW_CIDRS = [env.NETGUARD_ALLOW_CIDRS, '127.0.0.1/32'].filter(Boolean).join(',');
env.DASHBOARD_ORIGIN ??= dashboardOrigin;

ensureWebAppBuilt(root);

type Service = [name: string, args: string[], extra: NodeJS.ProcessEnv];
const services: Service[] = [
  [
    'local-inbox',
    [
      'packages/localenv/src/bin/inbox.ts',
      ...['--data-dir', dataDir, '--port', inboxPort, '--control-port', inboxControlPort],
    ],
    {},
  ],
  ['api', ['services/api/src/bin.ts'], { PORT: apiPort, HOST: '127.0.0.1' }],
  ['ingest', ['services/ingest/src/bin.ts'], { PORT: ingestPort, HOST: '127.0.0.1' }],
  ['delivery-worker', ['services/delivery-worker/src/bin.ts'], {}],
  ['a2a-worker', ['services/a2a-worker/src/bin.ts'], {}],
  [
    'gateway',
    ['scripts/gateway.ts'],
    {
      PORT: gatewayPort,
      API_URL: `http://127.0.0.1:${apiPort}`,
      INGEST_URL: `http://127.0.0.1:${ingestPort}`,
    },
  ],
  [
    'dashboard',
    ['services/dashboard/src/bin.ts'],
    {
      PORT: dashboardPort,
      HOST: '127.0.0.1',
      API_URL: `http://127.0.0.1:${apiPort}`,
      DASHBOARD_PUBLIC_ORIGIN: dashboardOrigin,
      LOCAL_INBOX_CONTROL_URL: inboxControlUrl,
      LOCAL_INBOX_URL: `https://127.0.0.1:${inboxPort}/hooks/dashboard`,
    },
  ],
];

const children: ChildProcess[] = [];
for (const [name, args, extra] of services) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    // NODE_OPTIONS set for the start applies to every service; else each gets its own (node-options.ts).
    env: { NODE_OPTIONS: serviceNodeOptions(name), ...env, ...extra },
    // The inbox prints its URLs for standalone use; here the summary below says them.
    stdio: ['ignore', name === 'local-inbox' ? 'ignore' : 'inherit', 'inherit'],
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

/** Waits until `url` answers at all (any HTTP status below 500); false after about 20 s. */
async function answers(url: string): Promise<boolean> {
  for (let i = 0; i < 100 && !stopping; i++) {
    const ok = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const baseUrl = `http://127.0.0.1:${gatewayPort}`;
await Promise.all([
  answers(`${baseUrl}/health`),
  answers(`${inboxControlUrl}/requests`),
  answers(`${dashboardOrigin}/app/config`),
]);

let targets: DemoTargets | null = null;
try {
  targets = await ensureDemoTargets({
    apiUrl: `http://127.0.0.1:${apiPort}`,
    apiKey: demo.api_key,
    inboxUrl: inboxTargetUrl,
    stateFile: `${dataDir}/demo-targets.json`,
  });
  await registerInboxSecret(inboxControlUrl, targets.inbox);
} catch (err) {
  console.error(`start: the demo targets are not ready: ${err instanceof Error ? err.message : String(err)}`);
}

const targetLines = targets
  ? `
  targets    "${INBOX_TARGET_NAME}" ${targets.inbox.id} (webhook), "Demo mailbox" ${targets.mailbox.id}
  try        open the dashboard, Targets → ${INBOX_TARGET_NAME} → Send test event → Inbox`
  : '';
// A service that failed to start has already said so and is taking the rest down.
if (!stopping)
  console.log(`
evds is running
  dashboard  ${dashboardOrigin}   sign in with ${demo.email} / ${demo.password}${targetLines}
  base url   ${baseUrl}
  login      ${demo.email} / ${demo.password}
  api key    ${demo.api_key}
  try        curl -H "Authorization: Bearer ${demo.api_key}" ${baseUrl}/api/v1/orgs
  inbox      ${inboxTargetUrl} (what it received: ${inboxControlUrl}/requests)
  metrics    http://127.0.0.1:9100/metrics (api), 9101 ingest, 9102 delivery-worker, 9103 a2a-worker, 9104 dashboard
Ctrl-C stops every service.`);
