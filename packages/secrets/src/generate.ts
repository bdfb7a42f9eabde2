// Secrets handed to customers. Each is shown once and stored only as a SecretBox envelope.
import { randomBytes } from 'node:crypto';

/** A Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes (the HMAC key is those bytes). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The secret producers sign inbound events with (decisions 5, "Inbound signature verification"):
 * `X-Service-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`, keyed with the whole
 * string as UTF-8, so producers use it exactly as shown.
 */
export const newInboundSecret = (): string => `whin_${randomBytes(32).toString('hex')}`;
