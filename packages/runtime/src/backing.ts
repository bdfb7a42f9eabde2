import type { Logger } from 'pino';
import { waitFor } from './lifecycle.ts';

/** How a service checks that Postgres and Redis answer (for start-up and health). */
export interface BackingChecks {
  postgres: () => Promise<unknown>;
  redis: () => Promise<unknown>;
}

export interface HealthReport {
  ok: boolean;
  checks: Record<string, 'ok' | 'down'>;
}

export const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref(),
    ),
  ]);

/** Runs each check within `timeoutMs`; healthy when every one of them answers. */
export async function probeAll(
  checks: Record<string, () => Promise<unknown>>,
  timeoutMs = 2000,
): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), timeoutMs);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'down'] as const;
      }
    }),
  );
  return { ok: entries.every(([, v]) => v === 'ok'), checks: Object.fromEntries(entries) };
}

/** Services take work only once Postgres and Redis answer. */
export async function waitForBacking(checks: BackingChecks, logger: Logger): Promise<void> {
  await waitFor('postgres', checks.postgres, logger);
  await waitFor('redis', checks.redis, logger);
}

/** Wraps a shutdown so that calling it twice runs it once. */
export function once(f: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= f());
}
