import { randomBytes } from 'node:crypto';

/**
 * JSON text to embed as it is (archived payloads: key order, spacing and number formatting kept).
 * Only `stringifyWithRaw` knows how to place it; JSON.stringify alone would serialise the wrapper.
 */
export class RawJson {
  readonly text: string;
  constructor(bytes: Buffer | string) {
    // Ingestion accepts a body opening with a UTF-8 byte order mark, as JSON parsers may; spliced
    // mid-document the mark would make the response invalid JSON.
    const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
    this.text = text.startsWith('\uFEFF') ? text.slice(1) : text;
  }
}

/** Wraps archived JSON bytes, or passes null through (a dropped payload shows as null). */
export const rawJson = (bytes: Buffer | string | null): RawJson | null =>
  bytes === null ? null : new RawJson(bytes);

// Random per process: no string field of a response can be mistaken for a slot.
const SLOT = `__evds_raw_${randomBytes(8).toString('hex')}_`;
const SLOT_PATTERN = new RegExp(`"${SLOT}(\\d+)__"`, 'g');

/**
 * JSON.stringify for a value holding RawJson parts (anywhere, any number of them, e.g. one payload per
 * message of a list): each part is spliced in byte for byte, never parsed nor re-serialised. The result
 * goes out through the `rawJson` reply option of a route.
 */
export function stringifyWithRaw(value: unknown): string {
  const parts: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof RawJson)) return v;
    parts.push(v.text);
    return `${SLOT}${parts.length - 1}__`;
  });
  if (parts.length === 0) return text;
  // One pass; the spliced text is not scanned again, so a payload cannot inject a slot.
  return text.replace(SLOT_PATTERN, (_m, i: string) => parts[Number(i)] ?? 'null');
}
