// What the ingestion routes read from a request besides their path, for the OpenAPI document (and so
// the typed client): the handler reads and checks all of it itself (accept.ts), after its cheaper
// refusals, so none of it is parsed up front.
import { MAX_EVENT_TYPE } from '@evds/domain';
import { z } from 'zod';

const eventType = z
  .string()
  .optional()
  .describe(
    `The item's event type (1-${MAX_EVENT_TYPE} printable ASCII characters); wins over the body's event_type`,
  );
const correlationId = z
  .string()
  .optional()
  .describe(
    '1-128 characters of letters, digits, "-" and "_"; shown on the event and sent with its deliveries',
  );
const inboundSignature = {
  'X-Service-Timestamp': z
    .string()
    .optional()
    .describe('Unix seconds; required when the target verifies inbound signatures (300 s of skew at most)'),
  'X-Service-Signature': z
    .string()
    .optional()
    .describe(
      'v1=<hex HMAC-SHA256(inbound secret, "<timestamp>.<raw body>")>, when the target verifies them',
    ),
};

export const ingestRequestDocs = {
  e: {
    headers: z.object({ 'X-Event-Type': eventType, 'X-Correlation-ID': correlationId, ...inboundSignature }),
    body: z
      .looseObject({ event_type: z.string().optional().describe('Read when X-Event-Type is absent') })
      .describe('Any JSON object, archived and delivered byte for byte'),
  },
  t: {
    headers: z.object({
      'Idempotency-Key': z
        .string()
        .optional()
        .describe(
          '1-255 characters. The same key with the same body within 24 h answers the first item (Idempotent-Replayed: true); with another body, 409',
        ),
      'X-Event-Type': eventType,
      'X-Correlation-ID': correlationId,
      ...inboundSignature,
    }),
    body: z.unknown().describe('Any JSON value, archived and delivered byte for byte'),
  },
};
