// fast-check generators of the rest of a hostile request: query strings (repeated keys, a[]=, huge and
// malformed values), header values (huge, control characters, non-ASCII) and path ids of every wrong
// shape. Bodies: hostile-inputs.ts.
import fc from 'fast-check';
import { big } from './hostile-inputs.ts';

/** Header values as latin1 text: any byte but CR and LF (which would end the header, not fill it). */
const headerByte = fc.integer({ min: 0, max: 255 }).filter((b) => b !== 10 && b !== 13);
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  fc.array(headerByte, { maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => Buffer.from(s).toString('latin1')),
  fc.integer({ min: 129, max: 20_000 }).map(big),
  fc.constantFrom(
    '',
    ' ',
    '\t',
    '-',
    'a'.repeat(128),
    'a'.repeat(129),
    '\x00',
    '\x7f',
    'v1=zz',
    '99999999999999',
  ),
);

const HEADER_NAMES = [
  'X-Correlation-ID',
  'X-Event-Type',
  'Idempotency-Key',
  'X-Request-Id',
  'X-Service-Signature',
  'X-Service-Timestamp',
  'X-Billing-Signature',
  'X-Forwarded-For',
  'Origin',
  'Accept',
  'Accept-Encoding',
  'Content-Encoding',
];

export const hostileHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom(...HEADER_NAMES), weight: 8 },
      { arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,30}$/), weight: 1 },
    ),
    fc.oneof(
      { arbitrary: headerValue, weight: 4 },
      { arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown'), weight: 1 },
    ),
  ),
  { maxLength: 4 },
);

export const QUERY_KEYS = [
  'limit',
  'offset',
  'status',
  'event_type',
  'endpoint_id',
  'correlation_id',
  'window',
  'after',
  'a[]',
  'a[b][c]',
  '__proto__',
  'constructor[prototype][polluted]',
  '',
];
const queryValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc
    .string({ unit: 'binary', maxLength: 30 })
    .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '100',
    '101',
    '1e400',
    '9999999999',
    '24h',
    'QUEUED',
    '%00',
    '%',
    '%zz',
    '%E0%A4%A',
    '%FF%FE',
    'a%00b',
    '%C0%AF',
  ),
  fc.integer({ min: 100, max: 20_000 }).map(big),
);

/** `?a=1&a=2&...`, or nothing. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 10 }).map(encodeURIComponent)),
      queryValue,
    ),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

/** Path ids of every wrong shape, already as they go on the wire. */
const wrongIds = fc.oneof(
  fc.constantFrom(
    '0123456789ABCDEF0123456789ABCDEF',
    '0123456789abcdef0123456789abcde',
    '0123456789abcdef0123456789abcdef0',
    'g123456789abcdef0123456789abcdef',
    '%00',
    '0123456789abcdef0123456789abcde%00',
    '..',
    '%2e%2e',
    '%2F',
    '%zz',
    '%',
    '%C0%AF',
    '-1',
    '0',
    '1e400',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    "'%20or%201=1--",
    'a'.repeat(5000),
  ),
  // Not empty: /api/v1/events/ is another route (the list), not an id of the wrong shape.
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[0-9a-f]{1,64}$/).filter((s) => s.length !== 32),
);

export interface HostileId {
  value: string;
  /** Only an id of the caller's own organization may be found. */
  mayExist: boolean;
}

/** A path id: one of the caller's own, another organization's, a random well-formed one, or a wrong shape. */
export function hostileId(own: string[], others: string[]): fc.Arbitrary<HostileId> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...own).map((value) => ({ value, mayExist: true })), weight: 4 },
    { arbitrary: fc.constantFrom(...others).map((value) => ({ value, mayExist: false })), weight: 1 },
    {
      arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/).map((value) => ({ value, mayExist: false })),
      weight: 1,
    },
    { arbitrary: wrongIds.map((value) => ({ value, mayExist: false })), weight: 3 },
  );
}
