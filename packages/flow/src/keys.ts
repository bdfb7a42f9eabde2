// The Redis keys of delivery flow control. Every key of one organization carries the same hash tag
// ({org id}), so a script that touches an organization's and its target's keys runs on one Redis
// Cluster slot; the two deployment-wide sets (the pump's schedule, the open circuits) are separate.

export interface TargetRef {
  orgId: string;
  targetId: string;
}

export const flowKeys = (prefix: string, t: TargetRef) => {
  const org = `${prefix}:flow:{${t.orgId}}`;
  const target = `${org}:t:${t.targetId}`;
  return {
    /** Lease tokens (job ids) in flight for the organization, scored by when the lease lapses. */
    orgInflight: `${org}:inflight`,
    /** The organization's targets that have parked deliveries, scored by when they first parked. */
    orgParked: `${org}:parked-targets`,
    /** Lease tokens in flight for the target. */
    inflight: `${target}:inflight`,
    /** Job ids held for the target (no worker slot, no attempt), scored by when they were parked. */
    parked: `${target}:parked`,
    /** The circuit: state, failures, cooldown, probe token and times (ms). */
    circuit: `${target}:circuit`,
    /** The prefix of the target's keys, for the scripts to reach the org's other targets. */
    orgBase: org,
  };
};

/** Targets with parked deliveries and when the pump should look at them next ("kind/org/target"). */
export const pumpKey = (prefix: string) => `${prefix}:flow:pump`;
/** Targets whose circuit is open or half-open, scored by when it opened. */
export const openCircuitsKey = (prefix: string) => `${prefix}:flow:open`;

export const pumpMember = (kind: string, t: TargetRef) => `${kind}/${t.orgId}/${t.targetId}`;
export function parsePumpMember(member: string): (TargetRef & { kind: string }) | undefined {
  const [kind, orgId, targetId, ...rest] = member.split('/');
  return kind && orgId && targetId && rest.length === 0 ? { kind, orgId, targetId } : undefined;
}
