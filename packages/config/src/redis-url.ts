// REDIS_URL names either one Redis server or a Redis Cluster. One setting for both, so every service
// (and every tool that passes the URL on) reaches a cluster without new wiring, and credentials and
// TLS are said once:
//   redis://[user:password@]host:port[/db]    rediss://... (TLS)           one server (ioredis URL)
//   redis-cluster://[user:password@]host:port,host:port,...   rediss-cluster://... (TLS)
// The cluster form lists seed nodes; the client learns the others (and the slots) from any of them.

export interface ClusterNodeAddress {
  host: string;
  port: number;
}

export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      nodes: ClusterNodeAddress[];
      username?: string;
      password?: string;
      tls: boolean;
    };

const CLUSTER = /^(rediss?)-cluster:\/\/(.*)$/;

function parseNode(text: string): ClusterNodeAddress {
  // "[v6 address]:port" or "host:port"
  const m = /^\[([0-9A-Fa-f:.]+)\]:(\d+)$/.exec(text) ?? /^([A-Za-z0-9_.-]+):(\d+)$/.exec(text);
  const port = Number(m?.[2]);
  if (!m?.[1] || !Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`cluster node "${text}" must be host:port`);
  return { host: m[1], port };
}

/** Reads REDIS_URL; throws an Error saying what is wrong (the config schema reports it at start-up). */
export function parseRedisUrl(url: string): RedisTarget {
  const cluster = CLUSTER.exec(url);
  // Anything else is ioredis's own business (a URL, as always): its errors come on connecting.
  if (!cluster) return { kind: 'single', url };
  const rest = (cluster[2] ?? '').replace(/\/$/, '');
  const at = rest.lastIndexOf('@');
  const userinfo = at >= 0 ? rest.slice(0, at) : '';
  const hosts = at >= 0 ? rest.slice(at + 1) : rest;
  if (hosts.includes('/') || hosts.includes('?'))
    throw new Error('a cluster URL takes no database or options');
  const nodes = hosts.split(',').filter(Boolean).map(parseNode);
  if (nodes.length === 0) throw new Error('a cluster URL lists at least one host:port');
  const colon = userinfo.indexOf(':');
  const username = decodeURIComponent(colon >= 0 ? userinfo.slice(0, colon) : userinfo);
  const password = colon >= 0 ? decodeURIComponent(userinfo.slice(colon + 1)) : '';
  return {
    kind: 'cluster',
    nodes,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    tls: cluster[1] === 'rediss',
  };
}
