// The command line's whole configuration comes from the environment, so a key never lands in shell
// history or in a process list: EVDS_API_KEY, EVDS_URL and, when ingestion has its own origin,
// EVDS_INGEST_URL.
import { CliError } from './errors.ts';

export interface CliConfig {
  /** The API's origin; ./scripts/start.sh serves every route on its gateway, http://127.0.0.1:8080. */
  baseUrl: string;
  /** Where /t/ is served when not on baseUrl. */
  ingestUrl: string | undefined;
  apiKey: string | undefined;
}

export const DEFAULT_URL = 'http://127.0.0.1:8080';

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  return {
    baseUrl: nonEmpty(env.EVDS_URL) ?? DEFAULT_URL,
    ingestUrl: nonEmpty(env.EVDS_INGEST_URL),
    apiKey: nonEmpty(env.EVDS_API_KEY),
  };
}

/** The key, or a usage error that says how to get one (every command but `listen` needs it). */
export function requireApiKey(config: CliConfig): string {
  if (config.apiKey) return config.apiKey;
  throw new CliError(
    'missing_api_key',
    'EVDS_API_KEY is not set: export an API key (evds_sk_..., made in the dashboard or with `evds keys create`)',
  );
}
