// A real Redis Cluster for tests: three masters (no replicas) started from the installed redis-server
// on free local ports in a temporary directory, joined with `redis-cli --cluster create`, and stopped
// (the processes ended, the directory removed) by the test that started it. With `tls`, the nodes
// speak TLS only, to clients and to each other, under a certificate authority of their own.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createCertificateAuthority, issueServerCertificate, unusedPort } from '@evds/localenv';

const run = promisify(execFile);

const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

export interface RedisClusterNode {
  host: string;
  port: number;
}

export interface RedisClusterHarness {
  /** REDIS_URL for the services: `redis-cluster://127.0.0.1:p1,127.0.0.1:p2,...` (`rediss-cluster://` with TLS). */
  url: string;
  /** With TLS: the PEM of the nodes' certificate authority, for the services to trust. */
  caPem?: string;
  nodes: RedisClusterNode[];
  /** The port of the node that serves this key's slot. */
  nodeOf(key: string): Promise<number>;
  /** The keys matching `pattern` on each node, by port (every node listed, even with none). */
  keysByNode(pattern: string): Promise<Map<number, string[]>>;
  /** Ends every node and removes the directory; safe to call twice. */
  stop(): Promise<void>;
}

/** redis-cli on one node; `conn` is how to reach the nodes (TLS options, or none). */
type Cli = (port: number, ...args: string[]) => Promise<string>;
const cliWith =
  (conn: string[]): Cli =>
  async (port, ...args) =>
    (await run(REDIS_CLI, [...conn, '-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 30_000 }))
      .stdout;

/** Slot ranges by node port, from CLUSTER NODES ("<id> <ip:port@bus> <flags> ... connected 0-5460 ..."). */
async function slotRanges(cli: Cli, port: number): Promise<{ port: number; from: number; to: number }[]> {
  const ranges: { port: number; from: number; to: number }[] = [];
  for (const line of (await cli(port, 'cluster', 'nodes')).split('\n')) {
    const fields = line.trim().split(' ');
    const owner = Number(/:(\d+)@/.exec(fields[1] ?? '')?.[1]);
    for (const range of fields.slice(8)) {
      const [from, to = from] = range.split('-').map(Number);
      if (Number.isInteger(from) && Number.isInteger(to))
        ranges.push({ port: owner, from: from ?? 0, to: to ?? 0 });
    }
  }
  return ranges;
}

/** The node's own certificate (its key pair and its CA) for TLS to clients and to the other nodes. */
interface NodeTls {
  certFile: string;
  keyFile: string;
  caFile: string;
}

/** A CA and one certificate for every node (127.0.0.1, as a server and as a client), as files in `dir`. */
async function makeNodeTls(dir: string): Promise<NodeTls & { caPem: string }> {
  const ca = await createCertificateAuthority('evds test redis cluster CA', 30);
  const node = await issueServerCertificate(ca, {
    commonName: '127.0.0.1',
    days: 30,
    ips: ['127.0.0.1'],
    names: [],
    clientAuth: true,
  });
  const files = {
    certFile: join(dir, 'node.pem'),
    keyFile: join(dir, 'node.key'),
    caFile: join(dir, 'ca.pem'),
  };
  await writeFile(files.certFile, node.cert);
  await writeFile(files.keyFile, node.key, { mode: 0o600 });
  await writeFile(files.caFile, ca.cert);
  return { ...files, caPem: ca.cert };
}

const portArgs = (port: number, tls: NodeTls | undefined) =>
  tls
    ? [
        // No plain-text port: clients and the cluster bus speak TLS only.
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cluster',
        'yes',
        '--tls-cert-file',
        tls.certFile,
        '--tls-key-file',
        tls.keyFile,
        '--tls-ca-cert-file',
        tls.caFile,
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(port)];

function startNode(dir: string, port: number, busPort: number, tls: NodeTls | undefined): ChildProcess {
  const child = spawn(
    REDIS_SERVER,
    [
      ...portArgs(port, tls),
      '--cluster-port',
      String(busPort),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
      '--cluster-node-timeout',
      '3000',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      // BullMQ loses jobs silently under any eviction policy.
      '--maxmemory-policy',
      'noeviction',
      '--logfile',
      join(dir, `redis-${port}.log`),
    ],
    { stdio: 'ignore' },
  );
  child.on('error', () => undefined);
  return child;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`redis cluster: timed out waiting for ${what}`);
}

const stopChild = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
};

/**
 * One node on free ports, once it answers PING. A free port can be taken by another process before the
 * node binds it (an outgoing connection's ephemeral port, say): the node then exits at once, and is
 * started again on new ports. Every process started is added to `children`, so `stop` ends it.
 */
async function startAnsweringNode(
  dir: string,
  tls: NodeTls | undefined,
  cli: Cli,
  children: ChildProcess[],
): Promise<RedisClusterNode> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await unusedPort();
    const child = startNode(dir, port, await unusedPort(), tls);
    children.push(child);
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    await waitFor(
      `node ${port} to answer`,
      async () => exited() || (await cli(port, 'ping')).includes('PONG'),
    );
    if (!exited()) return { host: '127.0.0.1', port };
  }
  throw new Error('redis cluster: every node started exited at once (its ports were taken), 3 times');
}

/**
 * Starts `masters` redis-server processes in cluster mode, assigns the 16384 slots evenly between
 * them and waits until every node reports `cluster_state:ok` and knows all the others.
 */
export async function startRedisCluster(
  opts: { masters?: number; tls?: boolean } = {},
): Promise<RedisClusterHarness> {
  const masters = opts.masters ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'evds-redis-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: RedisClusterNode[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(children.map(stopChild));
    await rm(dir, { recursive: true, force: true });
  };
  // A CA that cannot be made leaves no directory behind either.
  const tls = opts.tls
    ? await makeNodeTls(dir).catch(async (err: unknown) => {
        await stop();
        throw err;
      })
    : undefined;
  const conn = tls ? ['--tls', '--cacert', tls.caFile] : [];
  const cli = cliWith(conn);
  try {
    for (let i = 0; i < masters; i++) nodes.push(await startAnsweringNode(dir, tls, cli, children));
    await run(
      REDIS_CLI,
      [
        ...conn,
        '--cluster',
        'create',
        ...nodes.map((n) => `${n.host}:${n.port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    );
    for (const n of nodes)
      await waitFor(`node ${n.port} to report cluster_state:ok`, async () => {
        const info = await cli(n.port, 'cluster', 'info');
        return info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${masters}`);
      });
  } catch (err) {
    await stop();
    throw err;
  }
  const first = nodes[0]?.port ?? 0;
  return {
    nodeOf: async (key) => {
      const slot = Number((await cli(first, 'cluster', 'keyslot', key)).trim());
      const owner = (await slotRanges(cli, first)).find((r) => slot >= r.from && slot <= r.to);
      if (!owner) throw new Error(`no node serves slot ${slot}`);
      return owner.port;
    },
    keysByNode: async (pattern) =>
      new Map(
        await Promise.all(
          nodes.map(async (n) => {
            const out = await cli(n.port, '--scan', '--pattern', pattern);
            return [n.port, out.split('\n').filter(Boolean)] as [number, string[]];
          }),
        ),
      ),
    url: `${tls ? 'rediss' : 'redis'}-cluster://${nodes.map((n) => `${n.host}:${n.port}`).join(',')}`,
    ...(tls ? { caPem: tls.caPem } : {}),
    nodes,
    stop,
  };
}
