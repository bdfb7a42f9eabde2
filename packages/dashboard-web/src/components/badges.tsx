// Small labelled pills: an event's status, a test marker, a target's kind and health.
import type { EventStatus, TargetHealth, TargetKind } from '../types.ts';

const statusTone: Record<EventStatus, string> = {
  QUEUED: 'neutral',
  RETRYING: 'warning',
  DELIVERED: 'success',
  FAILED: 'danger',
  EXPIRED: 'danger',
  REPLAYED: 'info',
};

export function StatusBadge({ status }: { status: EventStatus }) {
  return <span className={`badge ${statusTone[status] ?? 'neutral'}`}>{status}</span>;
}

export function TestBadge() {
  return (
    <span className="badge test" title="Sent with Send test event; writes no usage">
      test
    </span>
  );
}

export const kindLabel: Record<TargetKind, string> = {
  webhook: 'Webhook',
  mailbox: 'Mailbox',
  a2a: 'A2A agent',
};

export function KindBadge({ kind }: { kind: TargetKind }) {
  return <span className={`badge kind-${kind}`}>{kindLabel[kind]}</span>;
}

export function HealthBadge({ health, enabled }: { health: TargetHealth; enabled: boolean }) {
  if (!enabled) return <span className="badge neutral">Disabled</span>;
  if (health.circuit === 'open') return <span className="badge danger">Paused (circuit open)</span>;
  switch (health.status) {
    case 'healthy':
      return <span className="badge success">Healthy</span>;
    case 'failing':
      return <span className="badge danger">Failing</span>;
    case 'unknown':
      return <span className="badge neutral">No deliveries yet</span>;
  }
}
