import { createApiService, type ApiService } from '@evds/api';
import { loadApiConfig, type Env } from '@evds/config';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { testEnv } from './env.ts';
import { client, type Client } from './http.ts';

export interface TestApi {
  baseUrl: string;
  request: Client;
  service: ApiService;
  database: TestDatabase;
  env: Env;
  stop(): Promise<void>;
}

/** The management API on an ephemeral port over its own database; called over real HTTP. */
export async function startTestApi(overrides: Env = {}): Promise<TestApi> {
  const database = await createTestDatabase();
  const env = testEnv(database.url, overrides);
  const service = createApiService(loadApiConfig(env));
  await service.start();
  const baseUrl = `http://127.0.0.1:${service.port()}`;
  return {
    baseUrl,
    request: client(baseUrl),
    service,
    database,
    env,
    stop: async () => {
      await service.destroy();
      await database.drop();
    },
  };
}
