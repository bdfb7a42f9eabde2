// Proves that the Kubernetes manifests (infra/k8s) hold together without a cluster: every object passes
// the API schema of its kind (kubernetes-models' validators, generated with ajv from the Kubernetes and
// KEDA OpenAPI schemas; an object of a kind they do not know fails), and a broken copy fails; the
// Kustomize base lists every manifest; each Deployment runs the bin scripts/start.ts runs, sets only
// variables packages/config reads (with values it accepts), probes the ports it declares, and states
// its resources; Services, the Ingresses, the HPA and the KEDA ScaledObjects point at what exists, and
// each ScaledObject watches the very Redis list BullMQ keeps the waiting jobs of its queue in. The
// dashboard runs like the others, on a host of its own, in front of the api's Service.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadApiConfig,
  loadDashboardConfig,
  loadIngestConfig,
  loadWorkerConfig,
  metricsPortDefaults,
  SERVICE_HEAP_MB,
  SERVICE_NODE_OPTIONS,
  SERVICE_SEMI_SPACE_MB,
  serviceNodeOptions,
  type Env,
} from '@evds/config';
import { waitListKey, type JobKind } from '@evds/queue';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import type { IContainer, IProbe } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'infra/k8s');
const read = (rel: string): string => readFileSync(join(root, rel), 'utf8');

/** Every kind the manifests may use, with the validator of its schema. */
const models = [
  Namespace,
  ConfigMap,
  Secret,
  Service,
  Deployment,
  Job,
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
  Ingress,
  ScaledObject,
  TriggerAuthentication,
];
const modelOf = new Map(models.map((m) => [`${m.apiVersion}/${m.kind}`, m]));

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** Throws with the schema's own message when `doc` is not a valid object of its kind. */
function validateObject(doc: unknown): void {
  const { apiVersion, kind } = (doc ?? {}) as Partial<K8sObject>;
  const Model = modelOf.get(`${apiVersion}/${kind}`);
  if (!Model) throw new Error(`no schema is known for ${apiVersion}/${kind}`);
  new Model(doc as never).validate();
}

function objectsOf(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`);
    return d.toJS() as K8sObject;
  });
}

const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
const kustomization = objectsOf('kustomization.yaml')[0] as unknown as {
  resources: string[];
  namespace?: string;
  images?: { name: string }[];
};
const manifests = files.filter((f) => f !== 'kustomization.yaml');
const objects = kustomization.resources.flatMap(objectsOf);
const example = objectsOf('secret.example.yaml');
const all = [...objects, ...example];
const byKind = <T = K8sObject>(kind: string): T[] => objects.filter((o) => o.kind === kind) as T[];
const named = <T = K8sObject>(kind: string, name: string): T => {
  const o = byKind<T & K8sObject>(kind).find((x) => x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} "${name}" in infra/k8s`);
  return o;
};

interface PodSpecHolder {
  spec: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: { containers: IContainer[]; terminationGracePeriodSeconds?: number };
    };
  };
}
type DeploymentObject = K8sObject & PodSpecHolder;

const configMap = named<{ data: Record<string, string> }>('ConfigMap', 'evds-config');
const secret = example.find((o) => o.kind === 'Secret') as unknown as {
  metadata: { name: string };
  stringData: Record<string, string>;
};

// [name, file] pairs of the services the local start command runs (as in compose.test.ts), and the
// dashboard, which it starts once built.
const started = [
  ...(/const services[^=]*=\s*\[([\s\S]*?)\n\];/.exec(read('scripts/start.ts'))?.[1] ?? '').matchAll(
    /\[\s*'([\w-]+)',\s*\[?\s*'([^']+)'/g,
  ),
]
  .map((m) => ({ name: m[1]!, file: m[2]! }))
  // Development-only helpers (the local inbox of packages/localenv) are never deployed.
  .filter((s) => !s.file.startsWith('packages/localenv/'))
  .filter((s) => s.file.startsWith('services/'))
  .filter((s) => s.name !== 'dashboard')
  .concat([{ name: 'dashboard', file: 'services/dashboard/src/bin.ts' }]);

const container = (d: PodSpecHolder): IContainer => {
  const [c, ...more] = d.spec.template.spec.containers;
  if (!c || more.length > 0) throw new Error('one container per evds pod');
  return c;
};

/** The environment a container gets: the ConfigMap it loads, its own values, placeholder secrets. */
function envOf(c: IContainer): Env {
  const env: Env = {};
  for (const from of c.envFrom ?? []) {
    expect(from.configMapRef?.name).toBe('evds-config');
    Object.assign(env, configMap.data);
  }
  for (const e of c.env ?? []) {
    const cm = e.valueFrom?.configMapKeyRef;
    const sk = e.valueFrom?.secretKeyRef;
    if (cm) {
      expect({ var: e.name, key: cm.key, inConfigMap: cm.key in configMap.data }).toEqual({
        var: e.name,
        key: cm.key,
        inConfigMap: true,
      });
      env[e.name] = configMap.data[cm.key];
    } else if (sk) {
      expect({ var: e.name, secret: sk.name, key: sk.key, inSecret: sk.key in secret.stringData }).toEqual({
        var: e.name,
        secret: secret.metadata.name,
        key: sk.key,
        inSecret: true,
      });
      env[e.name] = secret.stringData[sk.key];
    } else {
      env[e.name] = e.value;
    }
  }
  return env;
}

/** The configuration a container's bin loads (as compose.test.ts does for the compose services). */
function configOf(c: IContainer): Record<string, unknown> {
  const bin = c.args?.[0] ?? '';
  const env = envOf(c);
  // A placeholder that parses: the example Secret's is not a real key (and must not look like one).
  env.ENCRYPTION_KEYS &&= `k1:${Buffer.alloc(32, 1).toString('base64')}`;
  if (bin.startsWith('services/api/') || bin.startsWith('packages/db/')) return loadApiConfig(env);
  if (bin.startsWith('services/ingest/')) return loadIngestConfig(env);
  if (bin.startsWith('services/a2a-worker/')) return loadWorkerConfig(env, 'a2a-worker');
  if (bin.startsWith('services/delivery-worker/')) return loadWorkerConfig(env, 'delivery-worker');
  if (bin.startsWith('services/dashboard/')) return loadDashboardConfig(env);
  throw new Error(`no configuration is known for ${bin}`);
}

const deploymentOf = (service: string): DeploymentObject =>
  named<DeploymentObject>('Deployment', `evds-${service}`);
const portNamed = (c: IContainer, name: string) => c.ports?.find((p) => p.name === name)?.containerPort;
const httpGetOf = (probe: IProbe | undefined) => ({
  path: probe?.httpGet?.path,
  port: probe?.httpGet?.port,
});

describe('schemas', () => {
  it.each(manifests)('%s: every object is valid for its kind', (file) => {
    const docs = objectsOf(file);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(() => validateObject(doc)).not.toThrow();
  });

  it('refuse broken copies: a wrong type, a missing required field, an unknown kind', () => {
    const deployment = structuredClone(deploymentOf('api'));
    expect(() => validateObject(deployment)).not.toThrow();
    const cases: [string, (d: DeploymentObject) => void, RegExp][] = [
      [
        'replicas as text',
        (d) => ((d.spec as { replicas: unknown }).replicas = 'two'),
        /replicas must be integer/,
      ],
      ['a container without a name', (d) => delete (container(d) as { name?: string }).name, /name/],
      [
        'a probe port that is not a port',
        (d) => ((container(d).readinessProbe!.httpGet as { port: unknown }).port = { nope: true }),
        /port/,
      ],
      ['no pod template', (d) => delete (d.spec as { template?: unknown }).template, /template/],
      ['an unknown kind', (d) => (d.kind = 'Deplyment'), /no schema is known/],
    ];
    for (const [what, breakIt, message] of cases) {
      const copy = structuredClone(deployment);
      breakIt(copy);
      expect({
        what,
        error: (() => {
          try {
            validateObject(copy);
            return 'valid';
          } catch (e) {
            return String(e);
          }
        })(),
      }).toEqual({
        what,
        error: expect.stringMatching(message),
      });
    }
    const scaled = structuredClone(
      named<{ spec: { scaleTargetRef?: unknown } }>('ScaledObject', 'evds-delivery-worker'),
    );
    delete scaled.spec.scaleTargetRef;
    expect(() => validateObject(scaled)).toThrow(/scaleTargetRef/);
  });
});

describe('the Kustomize base', () => {
  it('lists every manifest but the example Secret, and each one once', () => {
    expect([...kustomization.resources].sort()).toEqual(
      manifests.filter((f) => f !== 'secret.example.yaml').sort(),
    );
    expect(new Set(kustomization.resources).size).toBe(kustomization.resources.length);
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(byKind('Namespace').map((n) => n.metadata.name)).toEqual([kustomization.namespace]);
  });

  it('names the image the Deployments and the Job run, so an overlay can set it in one place', () => {
    const images = [...byKind<DeploymentObject>('Deployment'), ...byKind<DeploymentObject>('Job')].map(
      (d) => container(d).image,
    );
    expect(new Set(images)).toEqual(new Set([kustomization.images?.[0]?.name]));
  });
});

describe('Deployments', () => {
  it('run every service of scripts/start.ts, each with its bin', () => {
    expect(started.map((s) => s.name).sort()).toEqual([
      'a2a-worker',
      'api',
      'dashboard',
      'delivery-worker',
      'ingest',
    ]);
    expect(byKind('Deployment')).toHaveLength(started.length);
    for (const { name, file } of started) {
      const d = deploymentOf(name);
      expect({ name, args: container(d).args }).toEqual({ name, args: [file] });
      expect(d.spec.selector?.matchLabels).toEqual(
        expect.objectContaining({ 'app.kubernetes.io/component': name }),
      );
      expect(d.spec.template.metadata.labels).toEqual(
        expect.objectContaining(d.spec.selector?.matchLabels ?? { selector: 'missing' }),
      );
    }
  });

  it('set only variables that packages/config reads, with values it accepts', () => {
    for (const { name } of started) {
      const c = container(deploymentOf(name));
      const known = Object.keys(configOf(c));
      const unknown = Object.keys(envOf(c)).filter((k) => !known.includes(k) && k !== 'NODE_OPTIONS');
      expect({ name, unknown }).toEqual({ name, unknown: [] });
      expect(configOf(c).NODE_ENV).toBe('production');
    }
  });

  it('run Node with the V8 flags of every service (or its own young generation), plus a heap cap', () => {
    for (const { name } of started) {
      const flags = envOf(container(deploymentOf(name))).NODE_OPTIONS ?? '';
      const common =
        SERVICE_SEMI_SPACE_MB[name] === undefined ? SERVICE_NODE_OPTIONS : '--max-semi-space-size=\\d+';
      expect({ name, flags }).toEqual({
        name,
        flags: expect.stringMatching(new RegExp(`^${common} --max-old-space-size=\\d+$`)),
      });
      // Where packages/config sets a service's flags (measured: bench/run.ts), the manifest uses them.
      if (SERVICE_HEAP_MB[name] !== undefined)
        expect({ name, flags }).toEqual({ name, flags: serviceNodeOptions(name) });
    }
  });

  it('serve metrics on METRICS_PORT (the default of each service), announced for scraping', () => {
    for (const { name } of started) {
      const d = deploymentOf(name);
      const c = container(d);
      const port = configOf(c).METRICS_PORT;
      expect({ name, port }).toEqual({
        name,
        port: metricsPortDefaults[name as keyof typeof metricsPortDefaults],
      });
      expect({ name, containerPort: portNamed(c, 'metrics') }).toEqual({ name, containerPort: port });
      expect(d.spec.template.metadata.annotations).toEqual(
        expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port) }),
      );
    }
  });

  it('probe readiness on /health and liveness on /live, on ports they declare', () => {
    for (const { name } of started) {
      const c = container(deploymentOf(name));
      const cfg = configOf(c);
      const http = name === 'api' || name === 'ingest';
      // The dashboard serves HTTP too, but is ready when the api answers: its metrics port says so.
      if (http || name === 'dashboard')
        expect({ name, http: portNamed(c, 'http') }).toEqual({ name, http: cfg.PORT });
      const readyOn = http ? 'http' : 'metrics';
      expect({ name, ready: httpGetOf(c.readinessProbe) }).toEqual({
        name,
        ready: { path: '/health', port: readyOn },
      });
      expect({ name, start: httpGetOf(c.startupProbe) }).toEqual({
        name,
        start: { path: '/health', port: readyOn },
      });
      expect({ name, live: httpGetOf(c.livenessProbe) }).toEqual({
        name,
        live: { path: '/live', port: 'metrics' },
      });
    }
  });

  it('request and limit CPU and memory, run unprivileged, and outlast their own shutdown deadline', () => {
    for (const d of [...byKind<DeploymentObject>('Deployment'), ...byKind<DeploymentObject>('Job')]) {
      const c = container(d);
      const name = d.metadata.name;
      for (const kind of ['requests', 'limits'] as const)
        expect({ name, kind, r: Object.keys(c.resources?.[kind] ?? {}).sort() }).toEqual({
          name,
          kind,
          r: ['cpu', 'memory'],
        });
      expect({ name, sc: c.securityContext }).toEqual({
        name,
        sc: expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true }),
      });
      if (d.kind !== 'Deployment') continue;
      const grace = (d.spec.template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
      const pause = Number(c.lifecycle?.preStop?.exec?.command?.at(-1) ?? 0) * 1000;
      expect({ name, fits: pause + Number(configOf(c).SHUTDOWN_TIMEOUT_MS) < grace }).toEqual({
        name,
        fits: true,
      });
    }
  });

  it('leave the replica count to the autoscaler wherever one scales them', () => {
    const scaled = [
      ...byKind<{ spec: { scaleTargetRef: { name: string } } }>('HorizontalPodAutoscaler'),
      ...byKind<{ spec: { scaleTargetRef: { name: string } } }>('ScaledObject'),
    ].map((s) => s.spec.scaleTargetRef.name);
    expect(scaled.sort()).toEqual(['evds-a2a-worker', 'evds-delivery-worker', 'evds-ingest']);
    for (const name of scaled)
      expect({ name, replicas: named<DeploymentObject>('Deployment', name).spec.replicas }).toEqual({
        name,
        replicas: undefined,
      });
  });
});

describe('what the other objects point at', () => {
  it('Services select a Deployment and reach ports its container names', () => {
    const deployments = byKind<DeploymentObject>('Deployment');
    for (const s of byKind<{
      metadata: { name: string };
      spec: { selector: Record<string, string>; ports: { targetPort: string }[] };
    }>('Service')) {
      const d = deployments.find((x) =>
        Object.entries(s.spec.selector).every(([k, v]) => x.spec.template.metadata.labels[k] === v),
      );
      expect({ service: s.metadata.name, selects: d?.metadata.name }).toEqual({
        service: s.metadata.name,
        selects: expect.any(String),
      });
      for (const p of s.spec.ports)
        expect({
          service: s.metadata.name,
          port: p.targetPort,
          found: portNamed(container(d!), p.targetPort),
        }).toEqual({
          service: s.metadata.name,
          port: p.targetPort,
          found: expect.any(Number),
        });
    }
    expect(named('Service', 'evds-api')).toBeDefined();
    expect(named('Service', 'evds-ingest')).toBeDefined();
  });

  it('the Ingress sends what scripts/gateway.ts sends to ingest there, the rest to the api', () => {
    const filter = /pathFilter:\s*\[([^\]]*)\]/.exec(read('scripts/gateway.ts'))?.[1] ?? '';
    const prefixes = [...filter.matchAll(/'([^']*?)\*\*'/g)].map((m) => m[1]!);
    const ingress = named<{
      spec: {
        rules: {
          http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] };
        }[];
      };
    }>('Ingress', 'evds');
    const paths = ingress.spec.rules.flatMap((r) => r.http.paths);
    const to = (path: string) => paths.find((p) => p.path === path)?.backend.service;
    for (const prefix of prefixes)
      expect({ prefix, to: to(prefix) }).toEqual({
        prefix,
        to: { name: 'evds-ingest', port: { name: 'http' } },
      });
    expect(to('/')).toEqual({ name: 'evds-api', port: { name: 'http' } });
  });

  it('the dashboard has a host of its own, its public origin, all of it to the dashboard', () => {
    const ingress = named<{
      spec: {
        rules: {
          host?: string;
          http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] };
        }[];
      };
    }>('Ingress', 'evds-dashboard');
    const [rule, ...more] = ingress.spec.rules;
    expect(more).toEqual([]);
    const cfg = configOf(container(deploymentOf('dashboard')));
    expect(`https://${rule?.host ?? ''}`).toBe(cfg.DASHBOARD_PUBLIC_ORIGIN);
    expect(rule?.http.paths.map((p) => [p.path, p.backend.service])).toEqual([
      ['/', { name: 'evds-dashboard', port: { name: 'http' } }],
    ]);
    // It calls the api through the api's Service, whose port 80 reaches the api's http port.
    const api = named<{ spec: { ports: { name: string; port: number; targetPort: string }[] } }>(
      'Service',
      'evds-api',
    );
    const url = new URL(String(cfg.API_URL));
    expect(url.hostname).toBe('evds-api');
    expect(api.spec.ports.find((p) => p.port === Number(url.port || 80))?.targetPort).toBe('http');
    expect(cfg.TRUST_PROXY).toEqual(configOf(container(deploymentOf('api'))).TRUST_PROXY);
  });

  it('ingest scales on CPU, which its container requests', () => {
    const hpa = named<{ spec: { minReplicas: number; metrics: { resource?: { name: string } }[] } }>(
      'HorizontalPodAutoscaler',
      'evds-ingest',
    );
    expect(hpa.spec.metrics.map((m) => m.resource?.name)).toEqual(['cpu']);
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(container(deploymentOf('ingest')).resources?.requests?.cpu).toBeDefined();
  });

  it.each([
    ['delivery-worker', 'webhook'],
    ['a2a-worker', 'a2a'],
  ] as [string, JobKind][])(
    'the %s ScaledObject watches the waiting list of the %s queue',
    (service, kind) => {
      const so = named<{
        spec: {
          scaleTargetRef: { name: string };
          minReplicaCount: number;
          triggers: { type: string; metadata: Record<string, string>; authenticationRef: { name: string } }[];
        };
      }>('ScaledObject', `evds-${service}`);
      expect(so.spec.scaleTargetRef.name).toBe(`evds-${service}`);
      // Retries that come due are moved to the waiting list by a running worker: never scale to zero.
      expect(so.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      const [trigger, ...more] = so.spec.triggers;
      expect(more).toEqual([]);
      expect(trigger?.type).toBe('redis');
      expect(trigger?.metadata.listName).toBe(waitListKey(configMap.data.REDIS_PREFIX ?? '', kind));
      expect(Number(trigger?.metadata.listLength)).toBeGreaterThan(0);
      const auth = named<{ spec: { secretTargetRef: { parameter: string; name: string; key: string }[] } }>(
        'TriggerAuthentication',
        trigger?.authenticationRef.name ?? '',
      );
      for (const ref of auth.spec.secretTargetRef) {
        expect(ref.name).toBe(secret.metadata.name);
        expect(Object.keys(secret.stringData)).toContain(ref.key);
      }
    },
  );

  it('the migration Job runs `pnpm migrate` and is never restarted in place', () => {
    const job = named<DeploymentObject & { spec: { template: { spec: { restartPolicy: string } } } }>(
      'Job',
      'evds-migrate',
    );
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.migrate;
    expect(['node', ...(container(job).args ?? [])].join(' ')).toBe(script);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(Object.keys(envOf(container(job))).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
  });

  it('checks every object of every file, the example Secret included', () => {
    expect(all.length).toBe(manifests.flatMap(objectsOf).length);
  });
});
