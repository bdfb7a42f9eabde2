// Proves the two shapes of a target row without a database: every kind renders to a shape its schema
// accepts (a2a rows with their chosen interface and card time, and without one), event_types becomes a
// JSON-encoded string in the endpoint shape, health reads healthy, failing or unknown from the row and
// the circuit (null when Redis could not say), and no shape carries a field that could hold a secret.
import { describe, expect, it } from '@jest/globals';
import type { PublicTarget } from '@evds/db';
import type { CircuitView } from '@evds/flow';
import { NEW_TARGET_CIRCUIT } from './health.ts';
import { endpointSchema, endpointView, targetSchema, targetView } from './views.ts';

const at = new Date('2026-11-21T07:08:38.207Z');
const base: PublicTarget = {
  id: 'a'.repeat(32),
  org_id: 'b'.repeat(32),
  kind: 'webhook',
  name: 'n',
  description: null,
  enabled: true,
  url: 'https://93.184.215.14/hook',
  event_types: ['a', 'b'],
  max_payload_bytes: 262144,
  max_retries: 5,
  retry_interval_seconds: 60,
  verify_inbound_signatures: false,
  agent_card_url: null,
  a2a_interface: null,
  a2a_auth_type: null,
  a2a_card_fetched_at: null,
  created_at: at,
  updated_at: at,
  disabled_reason: null,
  failing_since: null,
  last_success_at: null,
  last_failure_at: null,
  consecutive_failures: 0,
  has_previous_signing_secret: true,
};
const closed = NEW_TARGET_CIRCUIT;

describe('views', () => {
  it('renders a webhook in both shapes', () => {
    const e = endpointView(base, closed);
    expect(endpointSchema.parse(e)).toEqual(e);
    expect(e).toMatchObject({ event_types: '["a","b"]', description: '', created_at: 1795244918 });
    const t = targetView(base, closed);
    expect(targetSchema.parse(t)).toEqual(t);
    expect(t).toMatchObject({
      kind: 'webhook',
      signing_scheme: 'standard-webhooks-v1',
      has_previous_signing_secret: true,
    });
  });

  it('renders a mailbox without url or signing fields', () => {
    const t = targetView({ ...base, kind: 'mailbox', url: null, has_previous_signing_secret: false }, closed);
    expect(targetSchema.parse(t)).toEqual(t);
    expect(Object.keys(t).sort()).toEqual([
      'created_at',
      'description',
      'disabled_reason',
      'enabled',
      'health',
      'id',
      'kind',
      'name',
      'updated_at',
    ]);
  });

  it('renders an a2a target with its interface URL and auth type only', () => {
    const t = targetView(
      {
        ...base,
        kind: 'a2a',
        url: null,
        agent_card_url: 'https://93.184.215.14/.well-known/agent-card.json',
        a2a_interface: { url: 'https://93.184.215.14/a2a', binding: 'HTTP+JSON', version: '1.0' },
        a2a_auth_type: 'bearer',
        a2a_card_fetched_at: at,
      },
      closed,
    );
    expect(targetSchema.parse(t)).toEqual(t);
    expect(t).toMatchObject({
      url: 'https://93.184.215.14/a2a',
      interface: { url: 'https://93.184.215.14/a2a', binding: 'HTTP+JSON', version: '1.0' },
      card_fetched_at: 1795244918,
      auth: { type: 'bearer' },
    });
    expect(t).not.toHaveProperty('interface.tenant');
  });

  it('renders an a2a target without an interface and keeps a tenant when there is one', () => {
    const none = targetView({ ...base, kind: 'a2a', url: null, a2a_interface: null }, closed);
    expect(targetSchema.parse(none)).toEqual(none);
    expect(none).toMatchObject({ url: null, interface: null, card_fetched_at: null, auth: { type: 'none' } });
    const iface = { url: 'https://93.184.215.14/a2a/', binding: 'http+json', version: '1.0', tenant: 't1' };
    const withTenant = targetView({ ...base, kind: 'a2a', a2a_interface: iface }, null);
    expect(withTenant).toMatchObject({ interface: iface });
  });

  it('renders health: unknown before any attempt, healthy after a success, failing with its circuit', () => {
    expect(targetView(base, closed).health).toEqual({
      status: 'unknown',
      failing_since: null,
      last_success_at: null,
      last_failure_at: null,
      consecutive_failures: 0,
      circuit: 'closed',
      next_probe_at: null,
    });
    const healthy = endpointView({ ...base, last_success_at: at, last_failure_at: new Date(0) }, closed);
    expect(endpointSchema.parse(healthy)).toEqual(healthy);
    expect(healthy.health).toMatchObject({
      status: 'healthy',
      last_success_at: 1795244918,
      last_failure_at: 0,
    });

    const open: CircuitView = { ...closed, state: 'open', nextProbeAt: new Date('2026-11-21T07:09:00.900Z') };
    const failingRow = {
      ...base,
      failing_since: at,
      last_success_at: new Date('2026-11-20T07:08:38.207Z'),
      last_failure_at: at,
      consecutive_failures: 7,
      enabled: false,
      disabled_reason: 'auto-disabled: every attempt failed since 2026-11-21T07:08:38.207Z',
    };
    const failing = targetView(failingRow, open);
    expect(targetSchema.parse(failing)).toEqual(failing);
    expect(failing).toMatchObject({
      enabled: false,
      disabled_reason: 'auto-disabled: every attempt failed since 2026-11-21T07:08:38.207Z',
      health: {
        status: 'failing',
        failing_since: 1795244918,
        last_success_at: 1795158518,
        consecutive_failures: 7,
        circuit: 'open',
        next_probe_at: 1795244940,
      },
    });
    // Redis could not be read: the circuit is not known, the rest still is.
    const unknown = targetView(failingRow, null);
    expect(targetSchema.parse(unknown)).toEqual(unknown);
    expect(unknown.health).toMatchObject({ status: 'failing', circuit: null, next_probe_at: null });
  });

  it('never renders a secret-bearing field', () => {
    const row = { ...base, signing_secret: 'v1.k.a.b.c', inbound_secret: 'v1.k.a.b.c' } as PublicTarget;
    for (const shape of [endpointView(row, closed), targetView(row, closed)])
      expect(JSON.stringify(shape)).not.toMatch(/v1\.k\.|"secret"|inbound_secret|"signing_secret"/);
  });
});
