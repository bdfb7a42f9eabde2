// The trims that replaced /x+$/: the same results as the regular expressions they replaced, including
// runs that are not at the end, and no copy when there is nothing to trim.
import { describe, expect, it } from '@jest/globals';
import { normalizeHostName, trimTrailing } from './trim.ts';

describe('trimTrailing', () => {
  it.each([
    ['https://a.example/rest//', '/', 'https://a.example/rest'],
    ['https://a.example/rest', '/', 'https://a.example/rest'],
    ['//', '/', ''],
    ['', '/', ''],
    ['a//b', '/', 'a//b'],
    ['example.com...', '.', 'example.com'],
  ])('trims %j of %j', (text, char, trimmed) => {
    expect(trimTrailing(text, char)).toBe(trimmed);
    expect(trimTrailing(text, char)).toBe(text.replace(char === '/' ? /\/+$/ : /\.+$/, ''));
  });
});

describe('normalizeHostName', () => {
  it('lower-cases and drops the dots of a fully qualified name', () => {
    expect(normalizeHostName('HOOK.Example.COM..')).toBe('hook.example.com');
    expect(normalizeHostName('a..b')).toBe('a..b');
  });
});
