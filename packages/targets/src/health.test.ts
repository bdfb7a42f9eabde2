// Proves that reading the circuits never fails a request: with Redis unreachable (a real client to a
// port nothing listens on, as during an outage) the read answers null, the views then show `circuit:
// null`, and asking for no targets does not touch Redis at all.
import { describe, expect, it } from '@jest/globals';
import { createRedis } from '@evds/queue';
import { readTargetCircuits } from './health.ts';

describe('readTargetCircuits', () => {
  it('answers null when Redis cannot answer, and an empty map for no targets', async () => {
    const away = createRedis('redis://127.0.0.1:1', { role: 'client' });
    try {
      const store = { redis: away, prefix: 'evds' };
      expect(await readTargetCircuits(store, [{ id: 'a'.repeat(32), org_id: 'b'.repeat(32) }])).toBeNull();
      expect(await readTargetCircuits(store, [])).toEqual(new Map());
    } finally {
      away.disconnect();
      // ioredis keeps the failed command's time-out timer (commandTimeout, 2 s) running: let it lapse,
      // so nothing of this test outlives it.
      await new Promise((r) => setTimeout(r, 2100));
    }
  });
});
