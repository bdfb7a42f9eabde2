import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Structured JSON logs. Credentials never reach a log line: request headers are not logged at all
 * (see request-log.ts) and these paths are censored wherever an object carrying them is logged.
 */
export const redactPaths = [
  'password',
  'token',
  'secret',
  'key',
  '*.password',
  '*.token',
  '*.secret',
  '*.key',
  '*.signing_secret',
  '*.previous_signing_secret',
  'req.headers.authorization',
  'req.headers["x-session-token"]',
  'req.headers.cookie',
];

export function createLogger(opts: { level: string; name: string }): Logger {
  return pino({
    name: opts.name,
    level: opts.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { service: opts.name },
  });
}
