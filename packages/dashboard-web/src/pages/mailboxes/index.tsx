// Mailboxes: pick a mailbox target, read its messages by state, open one for its payload and lease.
// The page only reads: claiming and acknowledging belong to the API key of a consumer.
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { MailboxMessages } from './messages.tsx';
import { useMailboxTargets } from './use-mailboxes.ts';
import './mailboxes.css';

export default function MailboxesPage() {
  const { id } = useParams();
  const targets = useMailboxTargets();
  const { mailboxes } = targets;
  // Without an id in the address the first mailbox is shown, so the page never opens on a blank choice.
  const selectedId = id ?? mailboxes[0]?.id;
  const selected = mailboxes.find((m) => m.id === selectedId);

  return (
    <>
      <PageHeader title="Mailboxes" subtitle="Messages waiting in your mailbox targets, by state." />
      <p className="notice info" role="note">
        <strong>Read-only.</strong> Claiming and acknowledging a message stay API-key routes (
        <code>POST /api/v1/mailbox-messages/:id/claim</code> and <code>…/ack</code>), called by the consumer
        that processes it; this page never changes a message.
      </p>
      {targets.isPending ? (
        <Loading label="Loading mailboxes…" />
      ) : targets.isError ? (
        <ErrorNotice error={targets.error} />
      ) : mailboxes.length === 0 && !targets.hasNextPage ? (
        <Empty>
          No mailbox yet. Create a mailbox target on the <Link to="/targets">Targets</Link> page, then send it
          items with an API key.
        </Empty>
      ) : (
        <div className="mbx-layout">
          <nav className="card mbx-list" aria-labelledby="mbx-list-heading">
            <h2 id="mbx-list-heading">Mailbox targets</h2>
            <ul>
              {mailboxes.map((m) => (
                <li key={m.id}>
                  <Link to={`/mailboxes/${m.id}`} aria-current={m.id === selectedId ? 'page' : undefined}>
                    {m.name}
                    {!m.enabled && <span className="muted"> (disabled)</span>}
                  </Link>
                </li>
              ))}
            </ul>
            {targets.hasNextPage && (
              <button
                type="button"
                className="button small"
                onClick={() => void targets.fetchNextPage()}
                disabled={targets.isFetchingNextPage}
              >
                {targets.isFetchingNextPage ? 'Loading…' : 'Load more targets'}
              </button>
            )}
          </nav>
          <div className="mbx-main">
            {selectedId ? (
              <MailboxMessages key={selectedId} mailboxId={selectedId} name={selected?.name ?? selectedId} />
            ) : (
              <Empty>Pick a mailbox to see its messages.</Empty>
            )}
          </div>
        </div>
      )}
    </>
  );
}
