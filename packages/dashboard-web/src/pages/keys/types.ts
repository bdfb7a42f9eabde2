// API key shapes as packages/accounts/src/views.ts and key-routes.ts answer them (Unix seconds).

export interface ApiKey {
  id: string;
  name: string;
  /** The first 12 characters of the key: all the API ever shows again. */
  prefix: string;
  created_at: number;
  last_used_at: number | null;
}

/** POST /api/v1/keys: the only answer that carries the full key. */
export interface CreatedKey {
  id: string;
  name: string;
  key: string;
}

/** The cache entry of the key list, refreshed after a creation or a deletion. */
export const keysQueryKey = ['keys'] as const;
