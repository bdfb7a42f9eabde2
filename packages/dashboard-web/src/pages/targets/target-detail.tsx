// One target: what it is and how its deliveries go, its settings, a test event, its signing secret
// (webhooks) or Agent Card (a2a), and deletion.
import { Link, useParams } from 'react-router';
import { KindBadge, HealthBadge } from '../../components/badges.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import { formatTime } from '../../lib/format.ts';
import type { Target } from '../../types.ts';
import { AgentCardPanel } from './agent-card.tsx';
import { DeleteTarget } from './delete-target.tsx';
import { HealthPanel } from './health.tsx';
import { useTarget } from './queries.ts';
import { SigningSecretPanel } from './signing-secret.tsx';
import { SettingsForm } from './settings-form.tsx';
import { TestEventPanel } from './test-event.tsx';

function Facts({ t }: { t: Target }) {
  return (
    <dl className="pairs facts">
      <dt>ID</dt>
      <dd className="mono">{t.id}</dd>
      {t.kind === 'webhook' && (
        <>
          <dt>URL</dt>
          <dd className="mono break">{t.url}</dd>
          <dt>Signing</dt>
          <dd>{t.signing_scheme}</dd>
        </>
      )}
      {t.kind === 'a2a' && (
        <>
          <dt>Agent Card</dt>
          <dd className="mono break">{t.agent_card_url ?? '—'}</dd>
          <dt>Authentication</dt>
          <dd>{t.auth.type === 'bearer' ? 'Bearer token (stored encrypted)' : 'None'}</dd>
        </>
      )}
      <dt>Created</dt>
      <dd>{formatTime(t.created_at)}</dd>
      <dt>Updated</dt>
      <dd>{formatTime(t.updated_at)}</dd>
    </dl>
  );
}

export function TargetDetailPage() {
  const { id = '' } = useParams();
  const target = useTarget(id);
  if (target.isPending)
    return (
      <>
        <PageHeader title="Target" />
        <Loading />
      </>
    );
  if (target.error)
    return (
      <>
        <PageHeader title="Target" />
        <ErrorNotice error={target.error} />
        <p>
          <Link to="/targets">Back to targets</Link>
        </p>
      </>
    );
  const t = target.data;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/targets">Targets</Link> <span aria-hidden="true">/</span> <span>{t.name}</span>
      </nav>
      <PageHeader
        title={t.name}
        subtitle={
          <>
            <KindBadge kind={t.kind} /> <HealthBadge health={t.health} enabled={t.enabled} />{' '}
            {t.description && <span className="muted">{t.description}</span>}
          </>
        }
        actions={
          t.kind !== 'mailbox' && (
            <Link className="button" to={`/events?endpoint_id=${t.id}`}>
              View events
            </Link>
          )
        }
      />
      {t.disabled_reason && (
        <p className="notice warning" role="note">
          The service disabled this target: {t.disabled_reason}. Enable it again below once the receiver
          works.
        </p>
      )}
      <div className="grid two">
        <section className="card section" aria-labelledby="facts-heading">
          <h2 id="facts-heading">Details</h2>
          <Facts t={t} />
        </section>
        <HealthPanel target={t} />
      </div>
      <TestEventPanel target={t} />
      <SettingsForm key={t.updated_at} target={t} />
      {t.kind === 'webhook' && <SigningSecretPanel target={t} />}
      {t.kind === 'a2a' && <AgentCardPanel target={t} />}
      <DeleteTarget target={t} />
    </>
  );
}
