// The workspace's mailbox targets. The target list has no kind filter, so pages of every kind are
// read and the mailboxes kept; "Load more" follows next_cursor when a workspace has many targets.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../api.ts';
import type { MailboxTarget, Target } from '../../types.ts';

const PAGE = 100;

interface TargetPage {
  targets: Target[];
  next_cursor?: string | null;
}

/** Retry only what may pass by itself: network errors and 5xx, never a 4xx the server meant. */
export const retryTransient = (count: number, error: unknown): boolean =>
  count < 2 && !(error instanceof ApiError && error.status < 500);

export function useMailboxTargets() {
  const query = useInfiniteQuery({
    queryKey: ['targets', 'pages', PAGE],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api<TargetPage>(
        `/api/v1/targets?limit=${PAGE}${pageParam ? `&after=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    retry: retryTransient,
  });
  const mailboxes: MailboxTarget[] =
    query.data?.pages.flatMap((p) => p.targets.filter((t): t is MailboxTarget => t.kind === 'mailbox')) ?? [];
  return { ...query, mailboxes };
}
