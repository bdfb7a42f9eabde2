// Proves the a2a request body and the reading of an agent's answer without a network: the payload bytes
// are spliced in untouched (key order, spacing, big numbers) and the body is exactly the v1.0
// SendMessageRequest; a 2xx counts only with a task or a message (task id and state kept); an A2A error
// is recorded by its details[].reason.
import { describe, expect, it } from '@jest/globals';
import type { SendResult } from '@evds/delivery';
import { describeA2aError, interpret, sendMessageBody } from './sender.ts';

const answer = (statusCode: number | null, body: unknown): SendResult => ({
  statusCode,
  durationMs: 5,
  responseBody: typeof body === 'string' ? body : JSON.stringify(body),
  error: null,
  refused: false,
});

describe('sendMessageBody', () => {
  it('splices the archived bytes in as the data value', () => {
    const payload = '{"zeta":1,  "big":12345678901234567890123,"n":1.50}';
    const body = sendMessageBody('e'.repeat(32), Buffer.from(payload)).toString();
    expect(body).toBe(
      `{"message":{"messageId":"${'e'.repeat(32)}","role":"ROLE_USER","parts":[{"data":${payload},` +
        '"mediaType":"application/json"}]},"configuration":{"returnImmediately":true}}',
    );
    expect(JSON.parse(body)).toMatchObject({ message: { role: 'ROLE_USER' } });
  });
  it('adds the tenant when there is one', () => {
    const body = JSON.parse(sendMessageBody('id', Buffer.from('[1]'), 't"1').toString()) as {
      tenant: string;
    };
    expect(body.tenant).toBe('t"1');
  });
});

describe('interpret', () => {
  it('delivers a task and keeps its id and state', () => {
    expect(
      interpret(answer(200, { task: { id: 't1', status: { state: 'TASK_STATE_SUBMITTED' } } })),
    ).toMatchObject({
      delivered: true,
      a2aTaskId: 't1',
      a2aTaskState: 'TASK_STATE_SUBMITTED',
    });
  });
  it('delivers a message, keeping a task id it names', () => {
    expect(interpret(answer(200, { message: { messageId: 'm', taskId: 't2' } }))).toMatchObject({
      delivered: true,
      a2aTaskId: 't2',
      a2aTaskState: null,
    });
  });
  it('does not deliver a 200 that is not a SendMessageResponse', () => {
    for (const body of [{ ok: true }, 'not json', { task: { status: {} } }])
      expect(interpret(answer(200, body))).toMatchObject({
        delivered: false,
        error: expect.stringContaining('without a task or a message'),
      });
  });
  it('records the reason of an A2A error', () => {
    const body = {
      error: {
        code: 400,
        status: 'FAILED_PRECONDITION',
        message: "The requested A2A protocol version '0.3' is not supported.",
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VERSION_NOT_SUPPORTED' }],
      },
    };
    expect(interpret(answer(400, body))).toMatchObject({
      error: "VERSION_NOT_SUPPORTED: The requested A2A protocol version '0.3' is not supported.",
    });
    expect(describeA2aError({ error: { status: 'INTERNAL' } })).toBe('INTERNAL');
    expect(interpret(answer(500, 'oops')).error).toBeNull();
  });
  it('passes a failure without an answer through', () => {
    const timedOut: SendResult = { ...answer(null, ''), responseBody: null, error: 'ETIMEDOUT: Timeout' };
    expect(interpret(timedOut)).toEqual(timedOut);
  });
});
