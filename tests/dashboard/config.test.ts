// Proves the dashboard's configuration: its defaults (port 3002, metrics port 9104, the API on
// 127.0.0.1:3000, the web app's dist), that production requires DASHBOARD_PUBLIC_ORIGIN and refuses
// the local inbox's variables (in the loader and in a real process, which exits before listening), and
// that malformed URLs and origins are refused naming the variable.
import { describe, expect, it } from '@jest/globals';
import { defaultDashboardStaticDir, loadDashboardConfig, metricsPortDefaults } from '@evds/config';
import { spawnService } from '@evds/testkit';

const inbox = {
  LOCAL_INBOX_CONTROL_URL: 'http://127.0.0.1:8444',
  LOCAL_INBOX_URL: 'https://127.0.0.1:8443/hooks/demo',
};
const production = { NODE_ENV: 'production', DASHBOARD_PUBLIC_ORIGIN: 'https://dashboard.example.com' };

describe('loadDashboardConfig', () => {
  it('has the documented defaults', () => {
    expect(loadDashboardConfig({})).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
      HOST: '0.0.0.0',
      TRUST_PROXY: [],
      METRICS_PORT: 9104,
      METRICS_HOST: '0.0.0.0',
      PORT: 3002,
      API_URL: 'http://127.0.0.1:3000',
      API_TIMEOUT_MS: 15_000,
      DASHBOARD_PUBLIC_ORIGIN: '',
      DASHBOARD_STATIC_DIR: defaultDashboardStaticDir,
      BODY_LIMIT_BYTES: 1024 * 1024,
      LOCAL_INBOX_CONTROL_URL: '',
      LOCAL_INBOX_URL: '',
    });
    expect(metricsPortDefaults.dashboard).toBe(9104);
    expect(defaultDashboardStaticDir).toMatch(/packages\/dashboard-web\/dist$/);
  });

  it('takes the local inbox in development and tests', () => {
    for (const NODE_ENV of ['development', 'test'])
      expect(loadDashboardConfig({ NODE_ENV, ...inbox })).toMatchObject(inbox);
  });

  it('production requires its own origin and refuses each local inbox variable', () => {
    expect(() => loadDashboardConfig({ NODE_ENV: 'production' })).toThrow(
      'invalid configuration: DASHBOARD_PUBLIC_ORIGIN is required when NODE_ENV=production',
    );
    expect(loadDashboardConfig(production).DASHBOARD_PUBLIC_ORIGIN).toBe('https://dashboard.example.com');
    for (const name of ['LOCAL_INBOX_CONTROL_URL', 'LOCAL_INBOX_URL'] as const)
      expect(() => loadDashboardConfig({ ...production, [name]: inbox[name] })).toThrow(
        `invalid configuration: ${name} is refused when NODE_ENV=production`,
      );
  });

  it('wants both inbox URLs or neither', () => {
    expect(() => loadDashboardConfig({ LOCAL_INBOX_URL: inbox.LOCAL_INBOX_URL })).toThrow(/go together/);
    expect(() => loadDashboardConfig({ LOCAL_INBOX_CONTROL_URL: inbox.LOCAL_INBOX_CONTROL_URL })).toThrow(
      /go together/,
    );
  });

  it.each([
    ['API_URL', 'not a url'],
    ['API_URL', 'ftp://127.0.0.1'],
    ['DASHBOARD_PUBLIC_ORIGIN', 'https://dashboard.example.com/'],
    ['DASHBOARD_PUBLIC_ORIGIN', 'https://dashboard.example.com/app'],
    ['DASHBOARD_PUBLIC_ORIGIN', 'javascript:alert(1)'],
    ['LOCAL_INBOX_URL', 'http://127.0.0.1:8443/hooks/demo'],
    ['LOCAL_INBOX_CONTROL_URL', 'https://127.0.0.1:8444'],
    ['PORT', '-1'],
    ['BODY_LIMIT_BYTES', '0'],
    ['API_TIMEOUT_MS', '0'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadDashboardConfig({ [name]: value })).toThrow(new RegExp(`\\n {2}${name}: `));
  });

  it('drops a trailing slash from API_URL', () => {
    expect(loadDashboardConfig({ API_URL: 'http://api:3000/' }).API_URL).toBe('http://api:3000');
  });
});

describe('the dashboard process', () => {
  it('exits at start in production with a local inbox configured, naming the variable', async () => {
    const started = spawnService(
      'dashboard',
      { ...production, ...inbox, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
      10_000,
    );
    await expect(started).rejects.toThrow(
      /exited \(1\) before it was ready[\s\S]*LOCAL_INBOX_CONTROL_URL is refused/,
    );
  });
});
