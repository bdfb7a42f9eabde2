export { createEvdsClient, type ClientOptions, type EvdsClient, type SendOptions } from './client.ts';
export { EvdsError } from './errors.ts';
export type { ConsumeEvent, ConsumeHandler, ConsumeOptions, ConsumeSummary } from './consume.ts';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookFailure,
  type WebhookHeaders,
} from './verify.ts';
export { defaultRetryPolicy, type RetryPolicy } from './retry.ts';
export type * from './types.ts';
export { pause } from './wait.ts';
