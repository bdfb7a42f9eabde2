// Proves that the a2a sender sends a bearer token only from an envelope sealed for its own target: one
// copied from another target's row, or from another column of its own, ends the attempt before any
// connection with the reason recorded, and the token sealed for the target is still used.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { DeliveryWork } from '@evds/db';
import { createSecretBox } from '@evds/secrets';
import { Agent } from 'undici';
import { a2aSender } from './sender.ts';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const dispatcher = new Agent({ connect: { timeout: 2000 } });
afterAll(() => dispatcher.destroy());
// Nothing listens on port 1: a request that is sent fails with a connection error, not the token's.
const send = a2aSender({ dispatcher, timeoutMs: 2000 });

const work = (token: string) =>
  ({
    id: 'e'.repeat(32),
    org_id: 'org-b',
    target_id: 'target-b',
    status: 'QUEUED' as const,
    attempt_count: 0,
    event_type: null,
    correlation_id: null,
    payload: Buffer.from('{"n":1}'),
    request_id: null,
    created_at: new Date(),
    kind: 'a2a' as const,
    url: 'https://127.0.0.1:1/',
    enabled: true,
    deleted_at: null,
    max_retries: 5,
    signing_secret: null,
    previous_signing_secret: null,
    a2a_interface: { url: 'https://127.0.0.1:1/', binding: 'HTTP+JSON', version: '1.0' },
    a2a_auth_type: 'bearer' as const,
    a2a_auth_token: token,
  }) satisfies DeliveryWork;

describe('a2a bearer tokens', () => {
  it.each([
    ['another target', box.seal('token-of-a', { id: 'target-a', column: 'a2a_auth_token' })],
    ['its own signing-secret column', box.seal('whsec_x', { id: 'target-b', column: 'signing_secret' })],
  ])('are not sent when sealed for %s', async (_where, envelope) => {
    const r = await send(work(envelope), box);
    expect(r).toMatchObject({ statusCode: null, durationMs: 0, refused: false });
    expect(r.error).toMatch(/^not sent: the stored bearer token cannot be used \(.*failed authentication/);
  });

  it('are sent when sealed for the target (the attempt gets as far as connecting)', async () => {
    const r = await send(work(box.seal('token-of-b', { id: 'target-b', column: 'a2a_auth_token' })), box);
    expect(r.statusCode).toBeNull();
    expect(r.error).not.toMatch(/bearer token/);
  });
});
