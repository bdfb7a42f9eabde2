// Times on the command line: an ISO 8601 date or time, or Unix seconds.
import { InvalidArgumentError } from 'commander';

/** Unix seconds from "2025-06-01", "2025-06-01T12:00:00Z" or "1748736000". */
export function parseTime(raw: string): number {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new InvalidArgumentError('expected an ISO 8601 time (2025-06-01T12:00:00Z) or Unix seconds');
  return Math.floor(ms / 1000);
}
