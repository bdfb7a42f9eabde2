// Operator command line: provisions workspaces, sets billing states and re-seals secrets after a key
// rotation or an upgrade from unbound envelopes (infra/README.md). Secrets are printed once.
//   node services/api/src/admin.ts create-workspace --org "Acme" --email ada@acme.test [--name Ada] [--password P] [--billing exempt]
//   node services/api/src/admin.ts set-billing --org <id or slug> --status suspended
//   node services/api/src/admin.ts reseal-secrets [--dry-run] [--json]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { provisionWorkspace, slugify } from '@evds/accounts';
import { loadApiConfig } from '@evds/config';
import { createDb, findOrganizationBySlug, getOrganization, setBillingStatus, type Db } from '@evds/db';
import { billingStatuses, type BillingStatus } from '@evds/domain';
import { bumpCacheGeneration, createRedis } from '@evds/queue';
import { createSecretBox } from '@evds/secrets';
import { resealSecrets } from '@evds/targets';

const usage = `usage:
  admin create-workspace --org <name> --email <email> [--name <user name>] [--password <pw>] [--slug <slug>] [--billing <status>] [--json]
  admin set-billing --org <id or slug> --status <${billingStatuses.join('|')}>
  admin reseal-secrets [--dry-run] [--json]   (re-encrypts stored secrets under the first ENCRYPTION_KEYS key)`;

function billing(s: string | undefined, fallback: BillingStatus): BillingStatus {
  if (s === undefined) return fallback;
  if (!(billingStatuses as readonly string[]).includes(s))
    throw new Error(`unknown billing status "${s}"\n${usage}`);
  return s as BillingStatus;
}

async function createWorkspace(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      slug: { type: 'string' },
      billing: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.org || !values.email) throw new Error(usage);
  const password = values.password ?? randomBytes(12).toString('base64url');
  const slug = values.slug ?? slugify(values.org);
  const ws = await provisionWorkspace(db, {
    orgName: values.org,
    slug,
    email: values.email,
    userName: values.name ?? values.email.split('@')[0] ?? values.email,
    password,
    billingStatus: billing(values.billing, 'exempt'),
  });
  const out = { org_id: ws.orgId, slug, email: values.email.toLowerCase(), password, api_key: ws.apiKey };
  if (values.json) console.log(JSON.stringify(out));
  else
    console.log(
      [
        `organization  ${out.org_id} (${slug})`,
        `login         ${out.email}`,
        `password      ${password}`,
        `api key       ${out.api_key}  (shown once)`,
      ].join('\n'),
    );
}

async function setBilling(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, status: { type: 'string' } } });
  if (!values.org || !values.status) throw new Error(usage);
  const org = (await getOrganization(db, values.org)) ?? (await findOrganizationBySlug(db, values.org));
  if (!org) throw new Error(`no organization "${values.org}"`);
  await setBillingStatus(db, org.id, billing(values.status, 'exempt'));
  // Ingest replicas cache billing states: tell them it changed.
  const cfg = loadApiConfig();
  const redis = createRedis(cfg.REDIS_URL, { role: 'client', name: 'evds-admin' });
  try {
    await bumpCacheGeneration(redis, cfg.REDIS_PREFIX);
  } finally {
    redis.disconnect();
  }
  console.log(`${org.slug}: billing status ${values.status}`);
}

async function reseal(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { 'dry-run': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  });
  // Refuses a missing or malformed ENCRYPTION_KEYS before anything is read.
  const box = createSecretBox(loadApiConfig().ENCRYPTION_KEYS);
  const report = await resealSecrets(db, box, { dryRun: values['dry-run'] });
  if (values.json) console.log(JSON.stringify(report));
  else
    console.log(
      `${values['dry-run'] ? 'would re-seal' : 're-sealed'} ${report.resealed} of ${report.scanned} sealed values ` +
        `under key "${report.currentKeyId}", bound to their rows (${report.unbound} found unbound); ` +
        `${report.skipped} changed meanwhile (run again), ${report.unreadable} unreadable`,
    );
  // Unreadable values name a key that is no longer configured (dropping keys is not safe yet), or were
  // copied from another row or column: either way the command never drops what it cannot open.
  if (report.unreadable > 0 || report.skipped > 0) {
    console.error(
      report.unreadable > 0
        ? `${report.unreadable} values cannot be opened: sealed under keys ENCRYPTION_KEYS does not list ` +
            '(add those keys back), or copied from another target or column (issue that target a new secret)'
        : 'some values changed while re-sealing: run the command again',
    );
    process.exitCode = 1;
  }
}

const [command, ...rest] = process.argv.slice(2);
const db = createDb({ url: loadApiConfig().DATABASE_URL, poolSize: 1, applicationName: 'evds-admin' });
try {
  if (command === 'create-workspace') await createWorkspace(db, rest);
  else if (command === 'set-billing') await setBilling(db, rest);
  else if (command === 'reseal-secrets') await reseal(db, rest);
  else throw new Error(usage);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
} finally {
  await db.destroy();
}
