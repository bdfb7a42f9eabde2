// Runs the local inbox on its own: makes or reuses the local CA under <data-dir>/local-ca, listens on
// 127.0.0.1, and prints INBOX_URL, INBOX_CONTROL_URL and INBOX_CA_FILE (KEY=value lines) once ready.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureLocalCa } from '../inbox/ca.ts';
import { createLocalInbox } from '../inbox/inbox.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '.data' },
    port: { type: 'string', default: '8443' },
    'control-port': { type: 'string', default: '8444' },
  },
});

function portOf(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`inbox: --${name} must be a port number (0 to 65535), got ${value}`);
    process.exit(2);
  }
  return n;
}

const dataDir = values['data-dir'];
try {
  const ca = await ensureLocalCa(join(dataDir, 'local-ca'));
  const inbox = createLocalInbox({
    tls: ca.server,
    port: portOf('port', values.port),
    controlPort: portOf('control-port', values['control-port']),
    secretsFile: join(dataDir, 'local-inbox-secrets.json'),
  });
  const { url, controlUrl } = await inbox.start();
  process.stdout.write(`INBOX_URL=${url}\nINBOX_CONTROL_URL=${controlUrl}\nINBOX_CA_FILE=${ca.caFile}\n`);
  const stop = () => {
    void inbox.destroy().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  console.error(`inbox: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
