// What the test-route suites share: the request, the usage as the API shows it, the rows the route could
// write (counted in Postgres), and a mailbox to send to.
import { expect } from '@jest/globals';
import type { Stack, TestWorkspace } from '@evds/testkit';
import { eventCount, usageCount } from './helpers.ts';

export interface Sent {
  id: string;
  target_id: string;
  kind: string;
  status: string;
  event_type: string;
  test: boolean;
  /** Set on refusals. */
  error?: string;
  code?: string;
}

export const sendTest = (
  stack: Stack,
  w: TestWorkspace,
  target: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
) => stack.api<Sent>(`/api/v1/targets/${target}/test`, { method: 'POST', key: w.apiKey, ...opts });

/** accepted_events of GET /api/v1/usage. */
export async function shownUsage(stack: Stack, w: TestWorkspace): Promise<number> {
  const r = await stack.api<{ usage: { accepted_events: number } }>('/api/v1/usage', { key: w.apiKey });
  expect(r.status).toBe(200);
  return r.body.usage.accepted_events;
}

/** Every row the test route could write for the workspace, counted in Postgres. */
export async function itemRows(stack: Stack, w: TestWorkspace) {
  const messages = await stack.db
    .selectFrom('mailbox_messages')
    .select('id')
    .where('org_id', '=', w.orgId)
    .execute();
  return {
    events: await eventCount(stack, w.orgId),
    messages: messages.length,
    usage: await usageCount(stack, w.orgId),
  };
}

export async function mailboxTarget(stack: Stack, w: TestWorkspace): Promise<string> {
  const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: w.apiKey,
    body: { kind: 'mailbox', name: 'box' },
  });
  expect(r.status).toBe(201);
  return r.body.target.id;
}
