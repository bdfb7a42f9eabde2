// Shorthands over the generated `paths`: the query, path parameters, JSON body and 2xx JSON answer of
// an operation, so the named methods and their callers never restate a shape by hand.
import type { paths } from './schema.ts';

export type { paths, components } from './schema.ts';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;

export type Query<P extends keyof paths, M extends Method = 'get'> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type Body<P extends keyof paths, M extends Method = 'post'> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type OkContent<O> = O extends { responses: infer R }
  ? R[200 & keyof R] | R[201 & keyof R] | R[202 & keyof R] extends infer S
    ? S extends { content: { 'application/json': infer J } }
      ? J
      : never
    : never
  : never;

/** The JSON body of an operation's success answer. */
export type Answer<P extends keyof paths, M extends Method = 'get'> = OkContent<Op<P, M>>;

/** Shapes used on their own. */
export type Event = Answer<'/api/v1/events/{id}'>;
export type EventSummary = Answer<'/api/v1/events'>['events'][number];
export type Target = Answer<'/api/v1/targets'>['targets'][number];
export type MailboxMessage = Answer<'/api/v1/mailbox-messages/{message_id}'>['message'];
export type Accepted = Answer<'/t/{target_id}', 'post'>;
