// Proves that a private instance's preferred port is skipped when something else listens on it.
import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { pickPort, portFree, unusedPort } from './ports.ts';

describe('pickPort', () => {
  it('keeps a free preferred port and moves past a taken one', async () => {
    const free = await unusedPort();
    expect(await pickPort(free)).toBe(free);

    const server = createServer();
    await new Promise<void>((resolve) => server.listen(free, '127.0.0.1', resolve));
    try {
      expect(await portFree(free)).toBe(false);
      const picked = await pickPort(free);
      expect(picked).not.toBe(free);
      expect(await portFree(picked)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
