// What the API's routes that put items into a target's pipeline pass, as ingestion does (see
// packages/ingest/src/accept.ts): the billing gate (402) and the target's ingest window (429). The
// window is the very one ingestion counts in (same key, same Redis, same limits), so replaying is
// no way around it. Replay, recover and the test route (test-route.ts) use these; a route added later
// that sends items must use them too, or it becomes the next ungated amplifier.
import type { TargetAdmission } from '@evds/db';
import { hitOrLetThrough, targetWindowKey, type RateLimiter } from '@evds/http';

export interface SendGateDeps {
  /** INGEST_RATE_LIMIT per INGEST_RATE_WINDOW_SECONDS under `${REDIS_PREFIX}:rl`, as the ingest service builds it. */
  ingestLimiter: RateLimiter;
  logger: { warn(obj: object, msg: string): void };
}

/** One hit of the target's ingest window (ingestion's key; let through when Redis cannot answer). */
export const targetWindow =
  (deps: SendGateDeps): TargetAdmission =>
  (targetId) =>
    hitOrLetThrough(deps.ingestLimiter, targetWindowKey(targetId), deps.logger);
