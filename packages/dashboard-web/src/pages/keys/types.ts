// API key shapes, from the OpenAPI document (see src/types.ts; Unix seconds). A key's `prefix` is its
// first 12 characters: all the API ever shows again.
import type { Answer } from '@evds/client/types';

export type ApiKey = Answer<'/api/v1/keys'>['keys'][number];

/** POST /api/v1/keys: the only answer that carries the full key. */
export type CreatedKey = Answer<'/api/v1/keys', 'post'>;

/** The cache entry of the key list, refreshed after a creation or a deletion. */
export const keysQueryKey = ['keys'] as const;
