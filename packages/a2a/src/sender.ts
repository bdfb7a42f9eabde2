// The a2a Sender for the shared delivery processor: one SendMessage over HTTP+JSON (A2A v1.0). The
// archived payload bytes are spliced in as the data part, never re-serialised; the messageId is the
// event id, so every retry of one item carries the same id and agents may de-duplicate on it.
import type { A2aInterface, DeliveryWork } from '@evds/db';
import { postJson, type Sender, type SenderResult } from '@evds/delivery';
import { SecretOpenError } from '@evds/secrets';
import type { Dispatcher } from 'undici';
import { messageSendUrl } from './card.ts';

export const A2A_VERSION = '1.0';
const USER_AGENT = 'evds-a2a/1.0';
/** The whole answer is read (a task may echo the message back); the processor keeps its first 4 KiB. */
const READ_BYTES = 1024 * 1024;

export interface A2aSenderOptions {
  /** The guarded dispatcher (createGuardedDispatcher), which also bounds connection set-up. */
  dispatcher: Dispatcher;
  timeoutMs: number;
  /**
   * Called once when the interface answers 404 (the agent may have moved): refreshes the target's
   * card so the next attempt uses the new interface, and says what happened for the attempt's log.
   */
  onNotFound?: (work: DeliveryWork, attemptStartedAt: Date) => Promise<string>;
}

/** The SendMessageRequest body, with `payload` (valid JSON, as accepted) spliced in as the data value. */
export function sendMessageBody(messageId: string, payload: Buffer, tenant?: string): Buffer {
  const head = `{"message":{"messageId":${JSON.stringify(messageId)},"role":"ROLE_USER","parts":[{"data":`;
  const tail =
    ',"mediaType":"application/json"}]},"configuration":{"returnImmediately":true}' +
    (tenant ? `,"tenant":${JSON.stringify(tenant)}` : '') +
    '}';
  return Buffer.concat([Buffer.from(head), payload, Buffer.from(tail)]);
}

export function a2aSender(opts: A2aSenderOptions): Sender {
  return async (work, secrets) => {
    const iface = work.a2a_interface;
    if (!iface) return noAnswer('the target has no A2A interface; refresh its Agent Card');
    const headers: Record<string, string> = {
      'a2a-version': A2A_VERSION,
      'content-type': 'application/json',
      accept: 'application/a2a+json, application/json',
      'user-agent': USER_AGENT,
    };
    if (work.a2a_auth_type === 'bearer') {
      if (!work.a2a_auth_token) return noAnswer('the target has bearer auth but no stored token');
      try {
        const token = secrets.open(work.a2a_auth_token, { id: work.target_id, column: 'a2a_auth_token' });
        headers.authorization = `Bearer ${token}`;
      } catch (err) {
        // A token that does not open for this target (copied, tampered, dropped key) is never sent.
        if (err instanceof SecretOpenError)
          return noAnswer(`not sent: the stored bearer token cannot be used (${err.message})`);
        throw err;
      }
    }
    const startedAt = new Date();
    const sent = await postJson(
      messageSendUrl(iface),
      sendMessageBody(work.id, work.payload, iface.tenant),
      headers,
      {
        dispatcher: opts.dispatcher,
        timeoutMs: opts.timeoutMs,
        keepBytes: READ_BYTES,
      },
    );
    const result = interpret(sent);
    if (sent.statusCode === 404 && opts.onNotFound) {
      const note = await opts
        .onNotFound(work, startedAt)
        .catch((err: unknown) => `card refresh failed: ${String(err)}`);
      result.error = [result.error, `interface ${interfaceLabel(iface)} answered 404; ${note}`]
        .filter(Boolean)
        .join('; ');
    }
    return result;
  };
}

const noAnswer = (error: string): SenderResult => ({
  statusCode: null,
  durationMs: 0,
  responseBody: null,
  error,
  refused: false,
});

const interfaceLabel = (iface: A2aInterface) => iface.url + (iface.tenant ? ` (tenant ${iface.tenant})` : '');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A 2xx is delivered only when it carries a SendMessageResponse (`task` or `message`); the task's id
 * and state are recorded. An A2A error's `details[].reason` (VERSION_NOT_SUPPORTED...) is recorded too.
 */
export function interpret(sent: Awaited<ReturnType<typeof postJson>>): SenderResult {
  if (sent.statusCode === null) return sent;
  const body = parseJson(sent.responseBody);
  if (sent.statusCode >= 200 && sent.statusCode < 300) {
    if (isObject(body) && isObject(body.task) && typeof body.task.id === 'string') {
      const status = body.task.status;
      const state = isObject(status) && typeof status.state === 'string' ? status.state : null;
      return { ...sent, delivered: true, a2aTaskId: body.task.id, a2aTaskState: state };
    }
    if (isObject(body) && isObject(body.message)) {
      const taskId =
        typeof body.message.taskId === 'string' && body.message.taskId ? body.message.taskId : null;
      return { ...sent, delivered: true, a2aTaskId: taskId, a2aTaskState: null };
    }
    return {
      ...sent,
      delivered: false,
      error: `the agent answered ${sent.statusCode} without a task or a message (not an A2A SendMessageResponse)`,
    };
  }
  return { ...sent, error: describeA2aError(body) };
}

/** "VERSION_NOT_SUPPORTED: <message>" from a google.rpc-style A2A error body, or null. */
export function describeA2aError(body: unknown): string | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const { message, status, details } = body.error;
  const reasons = Array.isArray(details)
    ? details.flatMap((d) => (isObject(d) && typeof d.reason === 'string' ? [d.reason] : []))
    : [];
  const label = reasons.length > 0 ? reasons.join(', ') : typeof status === 'string' ? status : 'A2A error';
  return typeof message === 'string' && message !== '' ? `${label}: ${message}` : label;
}
