// How a failed command ends. Expected failures (the service's typed errors, bad input, missing
// configuration) are one line on stderr, or the error object with --json, never a stack trace; only
// an unexpected error shows its stack, and only when EVDS_DEBUG is set.
import { EvdsError } from '@evds/client';

/** Exit codes: 1 when the service refused or something failed, 2 when the command line itself was wrong. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A mistake in the invocation or the environment: exits 2. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(code: string, message: string, exitCode = EXIT_USAGE) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

export interface ErrorReport {
  exitCode: number;
  /** What --json prints. */
  json: { error: string; code: string; status?: number };
  /** What a person reads. */
  text: string;
}

export function describeError(err: unknown, debug = false): ErrorReport {
  if (err instanceof EvdsError) {
    const where = err.status === 0 ? 'no HTTP answer' : `HTTP ${err.status}`;
    return {
      exitCode: EXIT_FAILURE,
      json: { error: err.error, code: err.code, status: err.status },
      text: `error: ${err.code}: ${err.error} (${where})`,
    };
  }
  if (err instanceof CliError)
    return {
      exitCode: err.exitCode,
      json: { error: err.message, code: err.code },
      text: `error: ${err.code}: ${err.message}`,
    };
  const message = err instanceof Error ? err.message : String(err);
  const stack = debug && err instanceof Error && err.stack ? `\n${err.stack}` : '';
  return {
    exitCode: EXIT_FAILURE,
    json: { error: message, code: 'internal_error' },
    text: `error: ${message}${stack}`,
  };
}
