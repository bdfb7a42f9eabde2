// Proves the raw JSON splice used by responses that embed archived payloads: every RawJson part of a
// value, at any depth and in any number, comes out byte for byte (spacing, key order, number formatting,
// unicode escapes), null passes through, the result is valid JSON, and neither a payload nor a string
// field that looks like a slot can inject or displace another part.
import { describe, expect, it } from '@jest/globals';
import { RawJson, rawJson, stringifyWithRaw } from './raw-json.ts';

describe('stringifyWithRaw', () => {
  it('is JSON.stringify when there is nothing raw', () => {
    const v = { a: 1, b: ['x', null], c: { d: 'e' } };
    expect(stringifyWithRaw(v)).toBe(JSON.stringify(v));
  });

  it('splices each part byte for byte, at any depth', () => {
    const first = '{"b": 1.50,  "a":[1e3, "\\u00e9"]}';
    const second = Buffer.from('[ 2 , {"z":0.0} ]');
    const text = stringifyWithRaw({
      one: rawJson(first),
      list: [{ payload: rawJson(second) }, { payload: rawJson(null) }, { payload: new RawJson('7') }],
    });
    expect(text).toBe(
      `{"one":${first},"list":[{"payload":${second.toString()}},{"payload":null},{"payload":7}]}`,
    );
    expect(JSON.parse(text)).toEqual({
      one: { b: 1.5, a: [1000, 'é'] },
      list: [{ payload: [2, { z: 0 }] }, { payload: null }, { payload: 7 }],
    });
  });

  it('drops a leading UTF-8 byte order mark, which is not JSON mid-document', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": 1}')]);
    expect(stringifyWithRaw({ p: rawJson(bom), q: rawJson('\uFEFF[1]') })).toBe('{"p":{"a": 1},"q":[1]}');
  });

  it('keeps the order of 100 parts', () => {
    const parts = Array.from({ length: 100 }, (_, i) => `{"n": ${i}}`);
    const text = stringifyWithRaw({ messages: parts.map((p) => ({ payload: rawJson(p) })) });
    expect(text).toBe(`{"messages":[${parts.map((p) => `{"payload":${p}}`).join(',')}]}`);
  });

  it('does not let a payload or a string field act as a slot', () => {
    const lookalike = '"__evds_raw_0000000000000000_0__"';
    const text = stringifyWithRaw({
      name: '__evds_raw_0000000000000000_0__',
      a: rawJson(`{"s":${lookalike}}`),
      b: rawJson('{"t":1}'),
    });
    expect(JSON.parse(text)).toEqual({
      name: '__evds_raw_0000000000000000_0__',
      a: { s: '__evds_raw_0000000000000000_0__' },
      b: { t: 1 },
    });
  });
});
