/** Unix seconds, the format of every record except events and attempts. */
export const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);
export const unixOrNull = (d: Date | null): number | null => (d ? unixSeconds(d) : null);
/** ISO 8601 UTC with milliseconds, the format of event records and their attempts. */
export const iso = (d: Date): string => d.toISOString();
