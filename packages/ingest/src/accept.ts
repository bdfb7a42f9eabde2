import { insertItem, type Db, type IngestTarget, type NewItem } from '@evds/db';
import {
  billingBlocks,
  isEventType,
  MAX_EVENT_TYPE,
  newId,
  sha256,
  type EventStatus,
  type MailboxState,
  type TargetKind,
} from '@evds/domain';
import { hitOrLetThrough, parseJson, targetWindowKey, type RateLimiter } from '@evds/http';
import type { IngestMetrics } from '@evds/metrics';
import { jobGroupId, type JobData, type Producer } from '@evds/queue';
import type { Logger } from '@evds/runtime';
import { SecretOpenError, type SecretBox } from '@evds/secrets';
import type { GroupCommit } from './group-commit.ts';
import type { LookupCache } from './lookup-cache.ts';
import { verifyInbound } from './inbound-signature.ts';

export interface IngestDeps {
  db: Db;
  groupCommit: GroupCommit;
  lookups: LookupCache;
  producer: Producer;
  limiter: RateLimiter;
  secrets: SecretBox;
  idempotencyTtlSeconds: number;
  mailboxRetentionSeconds: number;
  logger: Logger;
  /** Outcomes by kind (optional: unit tests need not pass it). */
  metrics?: IngestMetrics;
}

export interface IngestRequest {
  route: 'e' | 't';
  orgId: string;
  targetId: string;
  rawBody: Buffer;
  body: unknown;
  eventTypeHeader: string | undefined;
  correlationId: string | undefined;
  idempotencyKey: string | undefined;
  signature: string | undefined;
  timestamp: string | undefined;
  requestId: string | null;
  /** When the request began (performance.now()): lets the target lookup share its key lookup's read. */
  receivedAt?: number;
}

/** A request as it arrives: its body not read yet, and read only once the target's rules allow. */
export type UnreadRequest = Omit<IngestRequest, 'rawBody' | 'body'> & { body: IngestBody };

export interface IngestBody {
  /** Content-Length, when the request announced one. */
  announced: number | undefined;
  /** The raw bytes, at most `limit` of them: 'too_large' beyond. */
  read(limit: number): Promise<Buffer | 'too_large'>;
}

export type IngestResult =
  | {
      kind: 'accepted';
      id: string;
      targetId: string;
      targetKind: TargetKind;
      status: EventStatus | MailboxState;
      duplicate: boolean;
    }
  | { kind: 'not_found' }
  | { kind: 'billing_blocked' }
  | { kind: 'disabled' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'too_large'; limit: number }
  | { kind: 'invalid'; message: string; notJson?: true }
  | { kind: 'filtered'; eventType: string | null }
  | { kind: 'signature'; reason: string }
  | { kind: 'idempotency_conflict' };

const CORRELATION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_IDEMPOTENCY_KEY = 255;

/** The kinds each ingest route takes: `/e/` is the legacy webhook route, `/t/` takes every kind. */
const routeKinds: Record<IngestRequest['route'], readonly TargetKind[]> = {
  e: ['webhook'],
  t: ['webhook', 'mailbox', 'a2a'],
};

/**
 * Every rule an item must pass before it is accepted, in the order a caller can act on them, then
 * the durable commit (item, payload, usage in one transaction) and, after it, the enqueue. The target's
 * rules come first: until they pass, the body is not even read.
 */
export async function acceptItem(deps: IngestDeps, req: UnreadRequest): Promise<IngestResult> {
  const target = await deps.lookups.target(req.orgId, req.targetId, req.receivedAt);
  if (!target || !routeKinds[req.route].includes(target.kind)) return { kind: 'not_found' };
  if (billingBlocks(target.billing_status)) return { kind: 'billing_blocked' };
  if (!target.enabled) return { kind: 'disabled' };

  const read = await readItem(deps, req, target);
  if (read.kind !== 'ok') return read;
  const { rawBody, shape } = read;

  const item: NewItem = {
    id: newId(),
    orgId: req.orgId,
    targetId: target.id,
    kind: target.kind,
    eventType: shape.eventType,
    correlationId: req.correlationId ?? null,
    payload: rawBody,
    requestId: req.requestId,
    expiresAt: new Date(Date.now() + deps.mailboxRetentionSeconds * 1000),
  };
  const accepted = { kind: 'accepted', targetId: target.id, targetKind: target.kind } as const;
  if (!req.idempotencyKey) {
    // The common case shares a transaction with concurrent requests (and its enqueue with theirs).
    await deps.groupCommit.commit(item);
    return {
      ...accepted,
      id: item.id,
      status: target.kind === 'mailbox' ? 'UNREAD' : 'QUEUED',
      duplicate: false,
    };
  }
  const result = await insertItem(deps.db, item, {
    key: req.idempotencyKey,
    bodyHash: sha256(rawBody),
    ttlSeconds: deps.idempotencyTtlSeconds,
  });
  switch (result.outcome) {
    case 'idempotency_conflict':
      return { kind: 'idempotency_conflict' };
    case 'duplicate':
      return { ...accepted, id: result.id, status: result.status, duplicate: true };
    case 'created':
      await enqueueItems(deps.producer, deps.logger, [item]);
      return { ...accepted, id: result.id, status: result.status, duplicate: false };
  }
}

type Shape =
  { kind: 'ok'; eventType: string | null } | Extract<IngestResult, { kind: 'invalid' | 'filtered' }>;

type ReadItem = { kind: 'ok'; rawBody: Buffer; shape: Extract<Shape, { kind: 'ok' }> } | IngestResult;

/**
 * The body rules, in the order that keeps refusals cheap: an announced size over the target's limit
 * before a byte is read; the inbound signature (over the raw bytes) before the rate limit, so a caller
 * without the secret cannot spend the target's quota; the rate limit before the body is read, unless
 * the signature needed it, and always before it is parsed; then JSON and the item's shape.
 */
async function readItem(deps: IngestDeps, req: UnreadRequest, target: IngestTarget): Promise<ReadItem> {
  const tooLarge = { kind: 'too_large', limit: target.max_payload_bytes } as const;
  if ((req.body.announced ?? 0) > target.max_payload_bytes) return tooLarge;

  let rawBody: Buffer | 'too_large' | undefined;
  if (target.verify_inbound_signatures) {
    rawBody = await req.body.read(target.max_payload_bytes);
    if (rawBody === 'too_large') return tooLarge;
    const secret = openInboundSecret(deps, target);
    if (secret === undefined)
      return { kind: 'signature', reason: 'the inbound secret stored for this target cannot be used' };
    const check = verifyInbound(secret, rawBody, req.timestamp, req.signature);
    if (!check.ok) return { kind: 'signature', reason: check.reason };
  }

  const limited = await hitLimit(deps, target.id);
  if (limited) return limited;

  rawBody ??= await req.body.read(target.max_payload_bytes);
  if (rawBody === 'too_large') return tooLarge;
  const parsed = parseJson(rawBody);
  if (!parsed.ok) return { kind: 'invalid', message: 'request body is not valid JSON', notJson: true };
  const shape = checkShape({ ...req, rawBody, body: parsed.value }, target);
  return shape.kind === 'ok' ? { kind: 'ok', rawBody, shape } : shape;
}

export function checkShape(req: IngestRequest, target: IngestTarget): Shape {
  const object =
    typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)
      ? (req.body as Record<string, unknown>)
      : undefined;
  if (req.body === undefined) return { kind: 'invalid', message: 'request body is required' };
  if (req.route === 'e' && !object) return { kind: 'invalid', message: 'request body must be a JSON object' };
  if (req.correlationId !== undefined && !CORRELATION_ID.test(req.correlationId))
    return {
      kind: 'invalid',
      message: 'X-Correlation-ID must be 1-128 characters of letters, digits, "-" and "_"',
    };
  if (
    req.idempotencyKey !== undefined &&
    (req.idempotencyKey.length === 0 || req.idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
  )
    return { kind: 'invalid', message: `Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY} characters` };

  // The header wins; the body's `event_type` is the fallback.
  let eventType: string | null = req.eventTypeHeader ?? null;
  if (eventType === null && object && 'event_type' in object) {
    const fromBody = object.event_type;
    if (typeof fromBody !== 'string') return { kind: 'invalid', message: 'event_type: must be a string' };
    eventType = fromBody;
  }
  // It travels on as the x-event-type header of deliveries, so it must be a valid header value.
  if (eventType !== null && !isEventType(eventType))
    return { kind: 'invalid', message: `event_type: must be 1-${MAX_EVENT_TYPE} printable ASCII characters` };
  if (target.event_types.length > 0 && (eventType === null || !target.event_types.includes(eventType)))
    return { kind: 'filtered', eventType };
  return { kind: 'ok', eventType };
}

/** The per-target sliding window (let through when Redis cannot answer). */
async function hitLimit(deps: IngestDeps, targetId: string): Promise<IngestResult | undefined> {
  const r = await hitOrLetThrough(deps.limiter, targetWindowKey(targetId), deps.logger);
  return r.allowed ? undefined : { kind: 'rate_limited', retryAfterSeconds: r.retryAfterSeconds };
}

/**
 * The target's inbound secret, opened where it is bound; undefined (the request is refused) when it
 * is missing or does not open for this target (copied from another row or column, tampered, or under a
 * dropped key): an HMAC keyed with anything else would let the wrong producer in.
 */
function openInboundSecret(deps: IngestDeps, target: IngestTarget): string | undefined {
  if (!target.inbound_secret) return undefined;
  try {
    return deps.secrets.open(target.inbound_secret, { id: target.id, column: 'inbound_secret' });
  } catch (err) {
    if (!(err instanceof SecretOpenError)) throw err;
    deps.logger.warn({ targetId: target.id, reason: err.message }, 'inbound secret cannot be opened');
    return undefined;
  }
}

/**
 * After the commit, one job per item or per job group (inJobGroups). A failure here loses nothing: the
 * sweeper enqueues committed items whose job is missing.
 */
export async function enqueueItems(producer: Producer, logger: Logger, items: NewItem[]): Promise<void> {
  const jobs = (kind: 'webhook' | 'a2a') => {
    const groups = new Map<number, string[]>();
    const singles: { jobId: string; data: JobData<'webhook'> }[] = [];
    for (const i of items) {
      if (i.kind !== kind) continue;
      if (i.jobGroup === undefined) singles.push({ jobId: i.id, data: { eventId: i.id } });
      else if (groups.has(i.jobGroup)) groups.get(i.jobGroup)?.push(i.id);
      else groups.set(i.jobGroup, [i.id]);
    }
    return [
      ...singles,
      ...[...groups].map(([group, eventIds]) => ({ jobId: jobGroupId(group), data: { eventIds } })),
    ];
  };
  try {
    await Promise.all([producer.addBulk('webhook', jobs('webhook')), producer.addBulk('a2a', jobs('a2a'))]);
  } catch (err) {
    logger.warn({ err, items: items.length }, 'enqueue failed; the sweeper will enqueue these items');
  }
}
