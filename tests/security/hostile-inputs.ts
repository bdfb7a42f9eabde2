// fast-check generators of what a hostile or broken client sends: bodies (any JSON, deep nesting as raw
// text, __proto__/constructor keys, strings at the size limits, 1e400, NUL and lone surrogates, invalid
// UTF-8, truncated JSON, wrong or missing content types, lying Content-Length), query strings (repeated
// keys, a[]=, huge and malformed values), header values (huge, control characters, non-ASCII) and path
// ids of every wrong shape. Each generated piece says whether the service must refuse it.
import fc from 'fast-check';

export interface HostileBody {
  kind: string;
  bytes?: Buffer;
  /** Omitted: no Content-Type header. */
  contentType?: string;
  /** Sent instead of the real length. */
  contentLength?: string;
  /** True when no route that reads bodies may accept it. */
  mustRefuse: boolean;
}

/** The sizes the services enforce: any body (BODY_LIMIT_BYTES) and a target's default max_payload_bytes. */
export const BODY_LIMIT = 1024 * 1024;
export const PAYLOAD_LIMIT = 262144;

const JSON_TYPE = 'application/json';
/** The same rule as packages/http/src/body.ts, to know which content types must be refused. */
const isJsonType = (t: string): boolean => {
  const media = t.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === JSON_TYPE || /^application\/[a-z0-9.+-]+\+json$/.test(media);
};

const big = (n: number) => 'x'.repeat(n);

/** JSON text of a value a schema will not expect. */
const hostileValue: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '0.1e99999999'),
  // Strings the database or a terminal may choke on: NUL, lone surrogates, bidi overrides.
  {
    arbitrary: fc
      .tuple(
        fc.string({ maxLength: 8 }),
        fc.constantFrom('\\u0000', '\\ud800', '\\udfff\\ud800', '\\u202e', '\\uffff', '\\u001b[31m'),
      )
      .map(([text, bad]) => `"${JSON.stringify(text).slice(1, -1)}${bad}"`),
    weight: 3,
  },
  fc.constantFrom(
    'true',
    'null',
    '{}',
    '[]',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
  ),
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => JSON.stringify(s)),
  fc.integer({ min: 200, max: 70_000 }).map((n) => JSON.stringify(big(n))),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
);

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'event_type'),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** The route's own well-formed body with one field replaced, or one field (often a poisonous name) added. */
function mutated(fixture: unknown): fc.Arbitrary<HostileBody> {
  const base = typeof fixture === 'object' && fixture !== null ? (fixture as Record<string, unknown>) : {};
  const keys = Object.keys(base);
  const key = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), hostileKey) : hostileKey;
  return fc.tuple(key, hostileValue).map(([k, v]) => {
    const entries = Object.entries(base)
      .filter(([name]) => name !== k)
      .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
    entries.push(`${JSON.stringify(k)}:${v}`);
    return {
      kind: `fields ${JSON.stringify(k).slice(0, 40)}`,
      bytes: Buffer.from(`{${entries.join(',')}}`),
      contentType: JSON_TYPE,
      mustRefuse: false,
    };
  });
}

const deep = fc
  .record({
    depth: fc.integer({ min: 1000, max: 100_000 }),
    shape: fc.constantFrom('array', 'object', 'mixed'),
  })
  .map(({ depth, shape }): HostileBody => {
    const open = shape === 'array' ? '[' : shape === 'object' ? '{"a":' : '{"a":[';
    const close = shape === 'array' ? ']' : shape === 'object' ? '}' : ']}';
    const text = open.repeat(depth) + (shape === 'array' ? '' : '1') + close.repeat(depth);
    return {
      kind: `${shape} nested ${depth} deep`,
      bytes: Buffer.from(text),
      contentType: JSON_TYPE,
      mustRefuse: false,
    };
  });

/** A JSON object of exactly `size` bytes, around both limits. */
const nearLimit = fc
  .tuple(fc.constantFrom(BODY_LIMIT, PAYLOAD_LIMIT), fc.integer({ min: -2, max: 2 }))
  .map(([limit, delta]): HostileBody => {
    const size = limit + delta;
    const head = '{"event_type":"big","pad":"';
    const text = head + big(size - head.length - 2) + '"}';
    return {
      kind: `${size} bytes`,
      bytes: Buffer.from(text),
      contentType: JSON_TYPE,
      mustRefuse: size > BODY_LIMIT,
    };
  });

const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xa0, 0xa1],
  [0xe2, 0x28, 0xa1],
  [0xf0, 0x28, 0x8c, 0xbc],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
];
const invalidUtf8 = fc
  .tuple(fc.constantFrom(...INVALID_UTF8), fc.string({ maxLength: 20 }), fc.boolean())
  .map(([bad, text, inKey]): HostileBody => {
    const parts = inKey
      ? [Buffer.from('{"'), Buffer.from(bad), Buffer.from(`${JSON.stringify(text).slice(1, -1)}":1}`)]
      : [Buffer.from(`{"name":"${JSON.stringify(text).slice(1, -1)}`), Buffer.from(bad), Buffer.from('"}')];
    return { kind: 'invalid UTF-8', bytes: Buffer.concat(parts), contentType: JSON_TYPE, mustRefuse: true };
  });

const isJson = (s: string): boolean => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

const truncated = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.nat(),
  )
  .filter(([text]) => text.length >= 2)
  .map(([text, at]): HostileBody => {
    const cut = text.slice(0, 1 + (at % (text.length - 1)));
    return {
      kind: 'truncated JSON',
      bytes: Buffer.from(cut),
      contentType: JSON_TYPE,
      mustRefuse: !isJson(cut),
    };
  });

const wrongType = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonp',
        'application/json-patch',
        'text/json',
        'application/xml',
        'application/+json',
        '*/*',
        '',
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
    ),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
  )
  .filter(([type]) => !isJsonType(type) && !/[\r\n]/.test(type))
  .map(([type, text]): HostileBody => ({
    kind: `content type ${JSON.stringify(type)}`,
    bytes: Buffer.from(text),
    contentType: type,
    mustRefuse: true,
  }));

const noType = fc.jsonValue({ maxDepth: 2 }).map((v): HostileBody => ({
  kind: 'no content type',
  bytes: Buffer.from(JSON.stringify(v) ?? 'null'),
  mustRefuse: true,
}));

/** Declares far more than the limit and sends a few bytes: refused at once, never waited on. */
const lyingLength = fc
  .constantFrom('2000000', '99999999999', '18446744073709551617')
  .map((length): HostileBody => ({
    kind: `Content-Length ${length}`,
    bytes: Buffer.from('{}'),
    contentType: JSON_TYPE,
    contentLength: length,
    mustRefuse: true,
  }));

/** Any body, starting from the route's own well-formed one. */
export function hostileBody(fixture: unknown): fc.Arbitrary<HostileBody> {
  return fc.oneof(
    { arbitrary: fc.constant<HostileBody>({ kind: 'no body', mustRefuse: false }), weight: 1 },
    {
      arbitrary: fc.constant<HostileBody>({
        kind: 'well-formed',
        bytes: fixture === undefined ? undefined : Buffer.from(JSON.stringify(fixture)),
        contentType: JSON_TYPE,
        mustRefuse: false,
      }),
      weight: 1,
    },
    { arbitrary: mutated(fixture), weight: 6 },
    {
      arbitrary: fc.json().map((text): HostileBody => ({
        kind: 'any JSON',
        bytes: Buffer.from(text),
        contentType: JSON_TYPE,
        mustRefuse: false,
      })),
      weight: 2,
    },
    { arbitrary: deep, weight: 1 },
    { arbitrary: nearLimit, weight: 1 },
    { arbitrary: invalidUtf8, weight: 2 },
    { arbitrary: truncated, weight: 2 },
    { arbitrary: wrongType, weight: 2 },
    { arbitrary: noType, weight: 1 },
    { arbitrary: lyingLength, weight: 1 },
  );
}

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
