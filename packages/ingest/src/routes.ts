import { AppError, billingBlocked, windowFull } from '@evds/domain';
import {
  type DocumentedRoute,
  type ReadBody,
  type Reply,
  type RouteDef,
  defineRoute,
  idParam,
  errorSchema,
} from '@evds/http';
import type { Request } from 'express';
import { z } from 'zod';
import {
  acceptItem,
  type IngestDeps,
  type IngestRequest,
  type IngestResult,
  type UnreadRequest,
} from './accept.ts';
import { ingestRequestDocs } from './request-docs.ts';

const header = (req: Request, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

function toRequest(
  req: Request,
  readBody: ReadBody,
  route: IngestRequest['route'],
  orgId: string,
  targetId: string,
): UnreadRequest {
  const length = header(req, 'content-length');
  return {
    route,
    orgId,
    targetId,
    body: { announced: length === undefined ? undefined : Number(length), read: readBody },
    eventTypeHeader: header(req, 'x-event-type'),
    correlationId: header(req, 'x-correlation-id'),
    idempotencyKey: route === 't' ? header(req, 'idempotency-key') : undefined,
    signature: header(req, 'x-service-signature'),
    timestamp: header(req, 'x-service-timestamp'),
    requestId: req.id,
    receivedAt: req.receivedAt,
  };
}

/** Counts the outcome; a duplicate is set apart from a new item. */
function counted(deps: IngestDeps, result: IngestResult): IngestResult {
  deps.metrics?.item(result.kind === 'accepted' && result.duplicate ? 'duplicate' : result.kind);
  return result;
}

/** Maps every outcome of acceptItem to its answer; the switch is exhaustive, so a new outcome must be mapped. */
function reply(result: IngestResult, route: IngestRequest['route']): Reply {
  switch (result.kind) {
    case 'accepted': {
      const body =
        route === 'e'
          ? { id: result.id, status: result.status }
          : { id: result.id, target_id: result.targetId, kind: result.targetKind, status: result.status };
      return { status: 202, body, headers: result.duplicate ? { 'Idempotent-Replayed': 'true' } : {} };
    }
    case 'not_found':
      throw new AppError('not_found', route === 'e' ? 'endpoint not found' : 'target not found');
    case 'billing_blocked':
      throw billingBlocked();
    case 'disabled':
      throw new AppError('target_disabled', route === 'e' ? 'endpoint is disabled' : 'target is disabled');
    case 'rate_limited':
      throw windowFull(result.retryAfterSeconds);
    case 'too_large':
      throw new AppError(
        'payload_too_large',
        `payload is larger than this target's max_payload_bytes (${result.limit})`,
      );
    case 'invalid':
      throw new AppError(result.notJson ? 'invalid_json' : 'validation_failed', result.message);
    case 'filtered':
      throw new AppError(
        'event_type_filtered',
        result.eventType === null
          ? 'this endpoint only accepts listed event types, and the event has none'
          : `event type "${result.eventType}" is not accepted by this endpoint`,
      );
    case 'signature':
      throw new AppError('signature_invalid', result.reason);
    case 'idempotency_conflict':
      throw new AppError('idempotency_conflict', 'Idempotency-Key was already used with a different body');
  }
}

const accepted = {
  e: z.object({ id: z.string(), status: z.literal('QUEUED') }),
  t: z.object({
    id: z.string(),
    target_id: z.string(),
    kind: z.enum(['webhook', 'mailbox', 'a2a']),
    status: z.enum(['QUEUED', 'UNREAD']),
  }),
};

const commonResponses = {
  402: { description: 'billing pending or suspended', schema: errorSchema },
  403: { description: 'inbound signature missing or wrong (when verification is on)', schema: errorSchema },
  409: { description: 'target disabled; Idempotency-Key reused with another body', schema: errorSchema },
  413: { description: "body over the target's max_payload_bytes", schema: errorSchema },
  429: {
    description:
      'more than 100 requests in 60 s on this target (its window also counts replays and recoveries), or too many failed authentications from this address',
    schema: errorSchema,
  },
};

const specs = {
  e: {
    method: 'post',
    path: '/e/:endpoint_id',
    auth: 'K',
    deferBody: true,
    tag: 'ingestion',
    summary: 'Accept an event for a webhook endpoint',
    documented: ingestRequestDocs.e,
    params: z.object({ endpoint_id: idParam() }),
    responses: {
      202: { description: 'committed and queued', schema: accepted.e },
      422: { description: "event type not in the endpoint's event_types", schema: errorSchema },
      ...commonResponses,
    },
  },
  t: {
    method: 'post',
    path: '/t/:target_id',
    auth: 'K',
    deferBody: true,
    tag: 'ingestion',
    summary: 'Accept an item for a target of any kind (optional Idempotency-Key)',
    documented: ingestRequestDocs.t,
    params: z.object({ target_id: idParam() }),
    responses: {
      202: {
        description: 'committed (and queued for webhook and a2a targets); also an idempotent duplicate',
        schema: accepted.t,
      },
      ...commonResponses,
    },
  },
} satisfies Record<IngestRequest['route'], DocumentedRoute>;

/** The ingestion routes without handlers: the API's OpenAPI document describes them too. */
export const ingestRouteDocs: DocumentedRoute[] = Object.values(specs);

export function ingestRoutes(deps: IngestDeps): RouteDef[] {
  return [
    defineRoute({
      ...specs.e,
      handler: async ({ params, auth, req, readBody }) =>
        reply(
          counted(
            deps,
            await acceptItem(deps, toRequest(req, readBody, 'e', auth.orgId, params.endpoint_id)),
          ),
          'e',
        ),
    }),
    defineRoute({
      ...specs.t,
      handler: async ({ params, auth, req, readBody }) =>
        reply(
          counted(deps, await acceptItem(deps, toRequest(req, readBody, 't', auth.orgId, params.target_id))),
          't',
        ),
    }),
  ];
}
