// rawMember gives back a member's text exactly as the answer carried it: spacing, key order, escapes
// and number spellings that JSON.parse would normalise away, and never a neighbouring member's bytes.
import { describe, expect, it } from '@jest/globals';
import { rawMember } from './raw-json.ts';

const wrap = (payload: string, before = '"id":"e1",', after = ',"status":"QUEUED"') =>
  `{${before}"payload": ${payload}${after}}`;

describe('rawMember', () => {
  it.each([
    ['spacing and key order', '{ "b" : 1,\n  "a":[1, 2 ,3] }'],
    ['braces and quotes inside strings', '{"s":"a } ] \\" {","t":"\\\\"}'],
    ['number spellings', '[1.0, 1e3, -0, 10000000000000000001]'],
    ['unicode escapes', '{"x":"\\u00e9\\ud83d\\ude00"}'],
    ['a bare string', '"hello, world"'],
    ['a scalar', 'true'],
    ['null', 'null'],
    ['deep nesting', '{"a":{"b":{"c":[{"d":[[]]}]}}}'],
  ])('returns the exact bytes: %s', (_name, payload) => {
    expect(rawMember(wrap(payload), 'payload')).toBe(payload);
  });

  it('finds the member wherever it is among others', () => {
    expect(rawMember(wrap('{"k":1}', '', ''), 'payload')).toBe('{"k":1}');
    expect(rawMember(wrap('{"k":1}', '"payloads":"x","a":{"payload":2},'), 'payload')).toBe('{"k":1}');
  });

  it('ignores a same-named key nested deeper', () => {
    expect(rawMember('{"a":{"payload":1}}', 'payload')).toBeNull();
  });

  it('answers null for text that is not a JSON object, or is cut short', () => {
    expect(rawMember('[1,2]', 'payload')).toBeNull();
    expect(rawMember('{"payload": {"a": "b"', 'payload')).toBeNull();
    expect(rawMember('', 'payload')).toBeNull();
  });
});
