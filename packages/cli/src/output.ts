// Everything a command prints goes through here: one JSON document (or one JSON object per line for
// streaming commands) with --json, readable lines and tables without it. Results go to stdout;
// notices, counters and errors to stderr, so `evds ... --json | jq` always reads clean JSON.
import { describeError } from './errors.ts';

export interface Output {
  readonly json: boolean;
  /** The command's one result: `value` as JSON, or the text `human` renders. */
  result(value: unknown, human: () => string): void;
  /** One line of a streaming command (tail, consume, listen). */
  record(value: object, human: () => string): void;
  /** A notice for people; silent with --json. */
  note(text: string): void;
  /** Prints the error as --json or text asks; returns the exit code. */
  error(err: unknown): number;
  /** Routes stdout lines elsewhere while a live counter owns the terminal (null: back to stdout). */
  divert(write: ((text: string) => void) | null): void;
}

export function createOutput(
  json: boolean,
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): Output {
  let diverted: ((text: string) => void) | null = null;
  const write = (text: string) => (diverted ? diverted(text) : streams.stdout.write(text));
  return {
    json,
    result: (value, human) => write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`),
    record: (value, human) => write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`),
    note: (text) => {
      if (!json) streams.stderr.write(`${text}\n`);
    },
    error: (err) => {
      const report = describeError(err, Boolean(process.env.EVDS_DEBUG));
      streams.stderr.write(json ? `${JSON.stringify(report.json)}\n` : `${report.text}\n`);
      return report.exitCode;
    },
    divert: (to) => {
      diverted = to;
    },
  };
}

/** Left-aligned columns under a header; an empty list says so instead of printing a bare header. */
export function table(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

/** `key  value` lines for one record. */
export function fields(
  record: Record<string, unknown>,
  keys: readonly string[] = Object.keys(record),
): string {
  const width = Math.max(...keys.map((k) => k.length));
  return keys.map((k) => `${k.padEnd(width)}  ${cell(record[k])}`).join('\n');
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Unix seconds as an ISO 8601 UTC time without milliseconds. */
export const isoSeconds = (unix: number | null | undefined): string | null =>
  unix === null || unix === undefined ? null : new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
