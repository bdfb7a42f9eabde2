// Where BullMQ keeps each queue in Redis. BullMQ's scripts touch many keys of one queue at once, so on
// a Redis Cluster all of them must hash to one slot: there the queue name is a hash tag ("{name}"),
// one slot per queue (different queues land on different nodes, as BullMQ's docs advise). On one
// server the names stay as they have always been, so a deploy over a running Redis keeps its jobs.
import { catalog, type JobKind } from './catalog.ts';
import type { Redis } from './redis.ts';

export interface BullQueueName {
  /** The `prefix` option of BullMQ's Queue and Worker. */
  prefix: string;
  /** The queue name given to BullMQ. */
  name: string;
}

export function bullQueueName(kind: JobKind, prefix: string, clustered: boolean): BullQueueName {
  const name = catalog[kind].queue;
  return { prefix: `${prefix}:bull`, name: clustered ? `{${name}}` : name };
}

/** The layout for this connection: hash-tagged only on a cluster. */
export const bullQueueFor = (redis: Redis, kind: JobKind, prefix: string): BullQueueName =>
  bullQueueName(kind, prefix, redis.isCluster);
