import { loadIngestConfig, type Env } from '@evds/config';
import { createIngestService, type IngestService } from '@evds/ingest';
import { client, type Client } from './http.ts';

export interface TestIngest {
  request: Client;
  service: IngestService;
  stop(): Promise<void>;
}

/**
 * The ingest service in this process on an ephemeral port, called over real HTTP. Given a test API's
 * `env`, both share its database and Redis prefix.
 */
export async function startTestIngest(env: Env): Promise<TestIngest> {
  const service = createIngestService(loadIngestConfig(env));
  await service.start();
  return {
    request: client(`http://127.0.0.1:${service.port()}`),
    service,
    stop: () => service.destroy(),
  };
}
