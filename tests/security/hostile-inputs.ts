// fast-check generators of the bodies a hostile or broken client sends: any JSON, deep nesting as raw
// text, __proto__/constructor keys, strings at the size limits, 1e400, NUL and lone surrogates, invalid
// UTF-8, truncated JSON, wrong or missing content types, lying Content-Length. Each generated body says
// whether the service must refuse it. Query strings, headers and path ids: hostile-requests.ts.
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

export const big = (n: number): string => 'x'.repeat(n);

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
