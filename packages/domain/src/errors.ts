// One error type for expected failures, with a stable machine-readable code and one status table.

export const errorStatus = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  wrong_target_kind: 400,
  unauthenticated: 401,
  wrong_credential_kind: 401,
  payment_required: 402,
  forbidden: 403,
  signature_invalid: 403,
  cors_refused: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  lease_held: 409,
  target_disabled: 409,
  idempotency_conflict: 409,
  last_key: 409,
  key_limit: 409,
  target_limit: 409,
  key_in_use: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  url_refused: 422,
  event_type_filtered: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  billing_disabled: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.headers = headers;
  }
}

export const notFound = (what = 'resource'): AppError => new AppError('not_found', `${what} not found`);

/** Billing pending or suspended: every route that puts items into a pipeline answers this, word for word. */
export const billingBlocked = (): AppError =>
  new AppError('payment_required', 'ingestion is blocked while billing is pending or suspended');

/** A target's ingest window is full (ingestion, replay and recover share it; the contract's message). */
export const windowFull = (retryAfterSeconds: number): AppError =>
  new AppError('rate_limited', 'rate limit exceeded for this endpoint', {
    'Retry-After': String(retryAfterSeconds),
  });
