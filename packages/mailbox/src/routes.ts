// The consumer side of mailboxes: list, read, claim and acknowledge messages. Claim and ack take API
// keys only, since a claim belongs to the key that made it. Listing and reading never write anything,
// so a session (the dashboard, showing messages read-only) may do them too: it changes no state, no
// lease and no usage, exactly as a key's read does.
import {
  ackMailboxMessage,
  claimMailboxMessage,
  getMailboxMessage,
  listMailboxMessages,
  type Db,
  type MessageChange,
  type ShownMailboxMessage,
} from '@evds/db';
import { AppError, isId, mailboxStates, notFound } from '@evds/domain';
import { type Auth, type RouteDef, defineRoute, idParam, queryInt, stringifyWithRaw } from '@evds/http';
import { z } from 'zod';
import { messageSchema, messageView } from './views.ts';

const mailboxParams = z.object({ mailbox_id: idParam() });
const messageParams = z.object({ message_id: idParam() });

const listQuery = z.strictObject({
  status: z.enum(mailboxStates).optional().describe('Only messages in this state (as computed when read)'),
  limit: queryInt(50, 1, 100).describe('default 50, max 100'),
  after: z
    .string()
    .refine(isId, 'must be a message id (32 lowercase hex)')
    .optional()
    .describe('Cursor: the `next_cursor` of the previous page (a message id of this mailbox)'),
});

/** Claim and ack take no fields; an empty body or none at all is fine, anything else is refused. */
const noFields = z.strictObject({});

const messageBody = z.object({ message: messageSchema });
const oneMessage = (m: ShownMailboxMessage): string => stringifyWithRaw({ message: messageView(m) });

/** The route guard lets only API keys in; a claim is owned by the key. */
function keyIdOf(auth: Auth): string {
  if (auth.method !== 'api_key')
    throw new AppError('wrong_credential_kind', 'this route requires an API key');
  return auth.keyId;
}

/** Why a claim matched nothing, from the message as it is now (decisions.md §3: all 409). */
function claimRefusal(m: ShownMailboxMessage): AppError {
  switch (m.state) {
    case 'ACKNOWLEDGED':
      return new AppError('conflict', 'the message is already acknowledged');
    case 'EXPIRED':
      return new AppError('conflict', 'the message is past retention (EXPIRED)');
    case 'CLAIMED':
    case 'UNREAD':
      return new AppError('lease_held', 'the message is claimed by another API key under an active lease');
  }
}

function ackRefusal(m: ShownMailboxMessage, keyId: string): AppError {
  switch (m.state) {
    case 'CLAIMED':
      return new AppError('lease_held', 'the message is claimed by another API key under an active lease');
    case 'UNREAD':
      return new AppError(
        'conflict',
        m.claimed_by_key_id === keyId
          ? 'the lease of this API key has passed; claim the message again before acknowledging it'
          : 'the message is not claimed by this API key; claim it first',
      );
    case 'ACKNOWLEDGED':
      return new AppError('conflict', 'the message was acknowledged by another API key');
    case 'EXPIRED':
      return new AppError('conflict', 'the message is past retention (EXPIRED)');
  }
}

export function mailboxRoutes(deps: {
  db: Db;
  leaseSeconds: number;
  /** Payload bytes one list page may carry (MAILBOX_PAGE_MAX_BYTES); the first message always comes. */
  pageMaxBytes: number;
}): RouteDef[] {
  const { db } = deps;
  const reply = (r: MessageChange, refusal: (m: ShownMailboxMessage) => AppError | undefined) => {
    switch (r.outcome) {
      case 'not_found':
        throw notFound('mailbox message');
      case 'refused': {
        const err = refusal(r.message);
        if (err) throw err;
        return { body: null, rawJson: oneMessage(r.message) };
      }
      case 'changed':
        return { body: null, rawJson: oneMessage(r.message) };
    }
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/mailboxes/:mailbox_id/messages',
      auth: 'KS',
      tag: 'mailboxes',
      summary:
        'List messages oldest first, optionally by state, with cursor paging; listing is free and changes ' +
        'nothing (an API key or a session: the dashboard lists read-only; claim and ack take keys). ' +
        `A page holds at most \`limit\` messages and at most ${deps.pageMaxBytes} bytes of payloads ` +
        '(a larger first message still comes alone), so it may hold fewer than `limit` with `next_cursor` set',
      params: mailboxParams,
      query: listQuery,
      responses: {
        200: {
          description:
            'a page of messages; `next_cursor` is null on the last page, and set whenever messages remain ' +
            '(also when the byte budget ended the page early)',
          schema: z.object({
            messages: z.array(messageSchema),
            next_cursor: z
              .string()
              .nullable()
              .describe('Pass as `after` for the next page; null when there are no more messages'),
          }),
        },
        400: {
          description:
            'A bad query parameter (the message names it), e.g. an `after` that is not a message of this mailbox',
        },
      },
      handler: async ({ auth, params, query }) => {
        const r = await listMailboxMessages(db, auth.orgId, params.mailbox_id, {
          status: query.status,
          after: query.after,
          limit: query.limit,
          maxBytes: deps.pageMaxBytes,
        });
        switch (r.outcome) {
          case 'mailbox_not_found':
            throw notFound('mailbox');
          case 'bad_cursor':
            throw new AppError('validation_failed', 'after: not a message of this mailbox');
          case 'listed':
            return {
              body: null,
              rawJson: stringifyWithRaw({ messages: r.messages.map(messageView), next_cursor: r.nextCursor }),
            };
        }
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/mailbox-messages/:message_id',
      auth: 'KS',
      tag: 'mailboxes',
      summary:
        'One message with its payload (byte for byte); reading changes nothing, with an API key or a session alike',
      params: messageParams,
      responses: { 200: { description: 'the message', schema: messageBody } },
      handler: async ({ auth, params }) => {
        const m = await getMailboxMessage(db, auth.orgId, params.message_id);
        if (!m) throw notFound('mailbox message');
        return { body: null, rawJson: oneMessage(m) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/mailbox-messages/:message_id/claim',
      auth: 'K',
      tag: 'mailboxes',
      summary: `Claim a message for this API key under a ${deps.leaseSeconds}-second lease; the holder claiming again extends the lease`,
      params: messageParams,
      body: noFields,
      responses: {
        200: { description: 'claimed: the message is CLAIMED, with `lease_expires_at`', schema: messageBody },
        409: {
          description:
            'Another API key holds the message under an active lease (`lease_held`), or it is ACKNOWLEDGED or EXPIRED',
        },
      },
      handler: async ({ auth, params }) =>
        reply(
          await claimMailboxMessage(db, auth.orgId, params.message_id, keyIdOf(auth), deps.leaseSeconds),
          claimRefusal,
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/mailbox-messages/:message_id/ack',
      auth: 'K',
      tag: 'mailboxes',
      summary:
        'Acknowledge a message; only the API key holding the active claim may. Repeating it with that key answers the same',
      params: messageParams,
      body: noFields,
      responses: {
        200: { description: 'the message, ACKNOWLEDGED', schema: messageBody },
        409: {
          description:
            'This API key does not hold an active claim: never claimed, lease passed, held or acknowledged by another key, or EXPIRED',
        },
      },
      handler: async ({ auth, params }) => {
        const keyId = keyIdOf(auth);
        return reply(await ackMailboxMessage(db, auth.orgId, params.message_id, keyId), (m) =>
          // A repeated ack by the key that acknowledged (its answer was lost) is not an error.
          m.state === 'ACKNOWLEDGED' && m.claimed_by_key_id === keyId ? undefined : ackRefusal(m, keyId),
        );
      },
    }),
  ];
}
