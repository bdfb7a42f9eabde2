/**
 * Runs `items` one group per key (`keyOf`), all groups at once, and answers one result per item in the
 * items' order. A group whose run fails gives its error to its own items only. For a batch that must
 * be split before it reaches Redis, say by hash slot: a script's keys must share one on a cluster.
 */
export async function runGrouped<T, R>(
  items: T[],
  keyOf: (item: T) => string,
  run: (group: T[]) => Promise<R[]>,
): Promise<(R | Error)[]> {
  const groups = new Map<string, number[]>();
  for (const [i, item] of items.entries()) {
    const key = keyOf(item);
    const at = groups.get(key);
    if (at) at.push(i);
    else groups.set(key, [i]);
  }
  const out = new Array<R | Error>(items.length);
  await Promise.all(
    [...groups.values()].map(async (at) => {
      try {
        const results = await run(at.map((i) => items[i]!));
        at.forEach((i, j) => (out[i] = results[j]!));
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        for (const i of at) out[i] = error;
      }
    }),
  );
  return out;
}
