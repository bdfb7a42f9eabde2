/**
 * The wait a `Retry-After` header asks for, in milliseconds from `now`: delay-seconds (a non-negative
 * integer) or an HTTP date (RFC 9110 §10.2.3). Null when it is neither; a date in the past asks for 0.
 */
export function retryAfterMs(header: string | null | undefined, now: number): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  // Only the shapes of HTTP's three date forms (IMF-fixdate, RFC 850, asctime); Date.parse alone would
  // accept "3" or "2026" as dates.
  if (!/^[A-Za-z]{3,9},? [\w :-]{10,40}$/.test(value)) return null;
  // HTTP dates are always GMT; asctime says so by omission, and Date.parse would read it as local time.
  const at = Date.parse(/ (GMT|UTC)$/.test(value) ? value : `${value} GMT`);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The delay before the next attempt: the schedule's, or longer when the receiver asked for more with
 * Retry-After, but never longer than the schedule's longest delay.
 */
export function retryDelay(scheduled: number, asked: number | null, longest: number): number {
  if (asked === null) return scheduled;
  return Math.max(scheduled, Math.min(asked, longest));
}
