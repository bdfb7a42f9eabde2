import { PassThrough } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { EvdsError } from '@evds/client';
import { loadCliConfig, requireApiKey } from './config.ts';
import { CliError, describeError } from './errors.ts';
import { createOutput, fields, isoSeconds, table } from './output.ts';
import { parseTime } from './time.ts';

function capture(json: boolean) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const read = (s: PassThrough) => String(s.read() ?? '');
  return {
    out: createOutput(json, { stdout, stderr }),
    stdout: () => read(stdout),
    stderr: () => read(stderr),
  };
}

describe('output', () => {
  it('prints one JSON document with --json and text without; notes and errors go to stderr', () => {
    const json = capture(true);
    json.out.result({ a: 1 }, () => 'text');
    json.out.record({ b: 2 }, () => 'line');
    json.out.note('hello');
    expect(json.stdout()).toBe('{\n  "a": 1\n}\n{"b":2}\n');
    expect(json.stderr()).toBe('');
    const text = capture(false);
    text.out.result({ a: 1 }, () => 'text');
    text.out.note('hello');
    expect(text.stdout()).toBe('text\n');
    expect(text.stderr()).toBe('hello\n');
  });

  it('renders tables and fields, with "-" for missing values', () => {
    expect(
      table(
        [
          { id: 'a', name: 'x' },
          { id: 'bbb', name: null },
        ],
        ['id', 'name'],
      ),
    ).toBe('ID   NAME\na    x\nbbb  -');
    expect(table([], ['id'])).toBe('(none)');
    expect(fields({ id: 'a', enabled: false })).toBe('id       a\nenabled  false');
    expect(isoSeconds(0)).toBe('1970-01-01T00:00:00Z');
    expect(isoSeconds(null)).toBeNull();
  });
});

describe('errors', () => {
  it("prints the service's typed error as code, message and status; usage errors exit 2", () => {
    expect(describeError(new EvdsError(404, 'not_found', 'no such event'))).toEqual({
      exitCode: 1,
      json: { error: 'no such event', code: 'not_found', status: 404 },
      text: 'error: not_found: no such event (HTTP 404)',
    });
    expect(describeError(new EvdsError(0, 'network_error', 'fetch failed')).text).toBe(
      'error: network_error: fetch failed (no HTTP answer)',
    );
    expect(describeError(new CliError('missing_api_key', 'set it')).exitCode).toBe(2);
    const bug = describeError(new TypeError('boom'));
    expect(bug).toMatchObject({ exitCode: 1, text: 'error: boom' });
    expect(describeError(new TypeError('boom'), true).text).toContain('\n    at ');
  });
});

describe('configuration', () => {
  it('reads the environment, defaulting to the local gateway, and asks for a missing key', () => {
    const config = loadCliConfig({ EVDS_URL: ' https://evds.example ', EVDS_API_KEY: '' });
    expect(config).toEqual({ baseUrl: 'https://evds.example', ingestUrl: undefined, apiKey: undefined });
    expect(() => requireApiKey(config)).toThrow('EVDS_API_KEY is not set');
    expect(loadCliConfig({}).baseUrl).toBe('http://127.0.0.1:8080');
  });

  it('parses times as Unix seconds or ISO 8601', () => {
    expect(parseTime('1748736000')).toBe(1748736000);
    expect(parseTime('2025-06-01T00:00:00Z')).toBe(1748736000);
    expect(() => parseTime('soon')).toThrow('ISO 8601');
  });
});
