// Names of the workspace's API keys, so "claimed by" reads as a key's name rather than its id. Same
// cache entry as the API keys page (one answer shape, one owner).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { keysQueryKey, type ApiKey } from '../keys/types.ts';
import { retryTransient } from './use-mailboxes.ts';

export function useKeyNames(): (keyId: string) => string | undefined {
  const keys = useQuery({
    queryKey: keysQueryKey,
    queryFn: ({ signal }) => api<{ keys: ApiKey[] }>('/api/v1/keys', { signal }),
    retry: retryTransient,
  });
  return (keyId) => keys.data?.keys.find((k) => k.id === keyId)?.name;
}
