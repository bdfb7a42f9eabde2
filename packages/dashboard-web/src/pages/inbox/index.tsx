// Inbox (local development only): what the local HTTPS receiver got, newest first, and whether each
// request's Standard Webhooks signature verifies. It polls every 2 s so a test event shows up by itself.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, ApiError } from '../../api.ts';
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { AppConfig } from '../../types.ts';
import { InboxTable } from './inbox-table.tsx';
import type { InboxRequest } from './types.ts';
import './inbox.css';

const inboxKey = ['inbox-page', 'requests'] as const;
const POLL_MS = 2000;

const isNotFound = (e: unknown) => e instanceof ApiError && e.status === 404;
const retry = (n: number, e: unknown) => n < 2 && !(e instanceof ApiError && e.status < 500);

export default function InboxPage() {
  const queryClient = useQueryClient();
  const config = useQuery({
    queryKey: ['app-config'],
    queryFn: ({ signal }) => api<AppConfig>('/app/config', { signal }),
    staleTime: Infinity,
    retry,
  });
  const inbox = useQuery({
    queryKey: inboxKey,
    queryFn: ({ signal }) => api<{ requests: InboxRequest[] }>('/app/inbox', { signal }),
    // No inbox here (404) will not change by waiting: stop polling then.
    refetchInterval: (q) => (isNotFound(q.state.error) ? false : POLL_MS),
    retry,
  });
  const clear = useMutation({
    mutationFn: () => api<unknown>('/app/inbox', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKey }),
  });

  const absent = isNotFound(inbox.error) || config.data?.inbox === false;
  const requests = [...(inbox.data?.requests ?? [])].sort((a, b) => b.received_at - a.received_at);

  return (
    <>
      <PageHeader
        title="Inbox"
        subtitle="What the local HTTPS inbox received, newest first, refreshed every 2 seconds."
        actions={
          absent ? undefined : (
            <>
              <button
                type="button"
                className="button"
                onClick={() => void inbox.refetch()}
                disabled={inbox.isFetching}
              >
                Refresh
              </button>
              <button
                type="button"
                className="button"
                onClick={() => clear.mutate()}
                disabled={clear.isPending}
              >
                {clear.isPending ? 'Clearing…' : 'Clear'}
              </button>
            </>
          )
        }
      />
      {absent ? (
        <p className="notice info" role="note">
          The inbox runs only in local development: <code>./scripts/start.sh</code> starts it, and a
          production deployment never has one.
        </p>
      ) : (
        <>
          <p className="muted">
            Each request is checked with the official Standard Webhooks library against the signing secrets of
            the webhook targets created or rotated in this dashboard.
            {config.data?.inbox_url && (
              <>
                {' '}
                Inbox URL: <code>{config.data.inbox_url}</code>
              </>
            )}
          </p>
          <ErrorNotice error={clear.error} />
          {inbox.isPending ? (
            <Loading label="Loading the inbox…" />
          ) : inbox.isError && !inbox.data ? (
            <ErrorNotice error={inbox.error} />
          ) : requests.length === 0 ? (
            <Empty>
              Nothing received yet. Send a test event from a target that points at{' '}
              <code>{config.data?.inbox_url ?? 'the inbox URL'}</code> (any path on that host reaches the
              inbox). The demo workspace's “Local inbox” webhook target already does: open it on the{' '}
              <Link to="/targets">Targets</Link> page and send a test event.
            </Empty>
          ) : (
            <>
              {inbox.isError && <ErrorNotice error={inbox.error} />}
              <InboxTable requests={requests} />
            </>
          )}
        </>
      )}
    </>
  );
}
