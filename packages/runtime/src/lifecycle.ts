import type { Logger } from 'pino';

export interface Service {
  start(): Promise<void>;
  /** Stops taking work, finishes what is in flight, closes pools; safe to call twice. */
  destroy(): Promise<void>;
}

/**
 * Starts a service and stops it on SIGTERM/SIGINT, exiting under a hard deadline so a stuck
 * connection cannot keep a replica alive forever.
 */
export async function runService(service: Service, logger: Logger, shutdownTimeoutMs: number): Promise<void> {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown deadline passed, exiting');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    service.destroy().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  try {
    await service.start();
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    await service.destroy().catch(() => {});
    process.exit(1);
  }
}

/** Retries `check` until it succeeds or the deadline passes: services wait for Postgres and Redis to answer. */
export async function waitFor(
  what: string,
  check: () => Promise<unknown>,
  logger: Logger,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`${what} did not answer within ${timeoutMs} ms`, { cause: err });
      if (attempt === 1) logger.warn({ err: String(err) }, `waiting for ${what}`);
      await new Promise((r) => setTimeout(r, Math.min(250 * attempt, 2000)));
    }
  }
}
