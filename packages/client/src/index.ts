export { createEvdsClient, type ClientOptions, type EvdsClient, type SendOptions } from './client.ts';
export { EvdsError } from './errors.ts';
export { defaultRetryPolicy, type RetryPolicy } from './retry.ts';
export type * from './types.ts';
