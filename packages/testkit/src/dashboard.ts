import type { Env } from '@evds/config';
import { startTestApi, type TestApi } from './api.ts';
import { spawnService, type ServiceProcess } from './processes.ts';

export interface TestDashboard {
  api: TestApi;
  dashboard: ServiceProcess;
  /** The dashboard's base URL, e.g. http://127.0.0.1:43210. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The management API on its own database (in this process) and the dashboard as its own process in
 * front of it, the way they run deployed: the dashboard reaches the API over HTTP at API_URL. Suites
 * sign in many times from 127.0.0.1, so the API's login limits are raised out of the way; the suite
 * about them sets them low itself.
 */
export async function startTestDashboard(
  opts: { apiEnv?: Env; dashboardEnv?: Env } = {},
): Promise<TestDashboard> {
  const api = await startTestApi({
    LOGIN_RATE_LIMIT: '1000000',
    LOGIN_PREFIX_RATE_LIMIT: '1000000',
    LOGIN_ACCOUNT_RATE_LIMIT: '1000000',
    ...opts.apiEnv,
  });
  let dashboard: ServiceProcess;
  try {
    dashboard = await spawnService('dashboard', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      API_URL: api.baseUrl,
      ...opts.dashboardEnv,
    });
  } catch (err) {
    await api.stop();
    throw err;
  }
  return {
    api,
    dashboard,
    url: dashboard.url,
    stop: async () => {
      await dashboard.kill('SIGTERM');
      await api.stop();
    },
  };
}
