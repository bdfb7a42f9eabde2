// How numbers and times read on every page: one place, so pages agree.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const count = new Intl.NumberFormat();
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Unix seconds or an ISO string, as a local date and time. */
export function formatTime(t: number | string | null | undefined): string {
  if (t === null || t === undefined) return '—';
  const d = typeof t === 'number' ? new Date(t * 1000) : new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : dateTime.format(d);
}

/** Unix seconds as a local date, for periods. */
export const formatDate = (t: number): string => dateOnly.format(new Date(t * 1000));

/** "3 min ago" style, for lists where the exact time is in the tooltip. */
export function formatAgo(t: number | string, now = Date.now()): string {
  const ms = typeof t === 'number' ? t * 1000 : new Date(t).getTime();
  const s = Math.round((now - ms) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export const formatCount = (n: number): string => count.format(n);

export const formatCents = (cents: number): string => usd.format(cents / 100);

export function formatPercent(ratio: number | null): string {
  if (ratio === null) return '—';
  const p = ratio * 100;
  return `${p === 100 || p === 0 ? p.toFixed(0) : p.toFixed(1)}%`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The start of an id, enough to tell rows apart; the full id stays in the link and its title. */
export const shortId = (id: string): string => id.slice(0, 8) + '…';
