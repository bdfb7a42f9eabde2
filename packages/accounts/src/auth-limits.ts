import { createHash } from 'node:crypto';
import { AppError } from '@evds/domain';
import { clientAddress, type RateLimiter, type RouteDef } from '@evds/http';

/** The public auth routes' limits (decisions §9); each refusal is a 429 with Retry-After. */
export interface AuthLimiters {
  /** Login attempts per client address (the contract's 5 per 15 minutes per IP). */
  loginLimiter: RateLimiter;
  /** Login attempts per IPv6 /64, so rotating addresses inside one's own block does not escape. */
  loginPrefixLimiter: RateLimiter;
  /** Login attempts per account (email), so a password guesser spread over many networks is stopped too. */
  loginAccountLimiter: RateLimiter;
  /** Calls of the disabled signup route per client address. */
  signupLimiter: RateLimiter;
}

type BeforeHook = NonNullable<RouteDef['before']>;

const LOGIN_REFUSED = 'too many login attempts, please try again later';
const SIGNUP_REFUSED = 'too many signup attempts, please try again later';

async function take(limiter: RateLimiter, key: string, message: string): Promise<void> {
  const limit = await limiter.hit(key);
  if (!limit.allowed)
    throw new AppError('rate_limited', message, { 'Retry-After': String(limit.retryAfterSeconds) });
}

/**
 * Counts a login against its address and, for IPv6, its /64. Runs before the body is read, so every
 * attempt counts, malformed ones included.
 */
export const loginAddressLimit =
  (limiters: AuthLimiters): BeforeHook =>
  async (req, _res, next) => {
    const client = clientAddress(req.ip);
    await take(limiters.loginLimiter, `login:${client.address}`, LOGIN_REFUSED);
    if (client.prefix64)
      await take(limiters.loginPrefixLimiter, `login-prefix:${client.prefix64}`, LOGIN_REFUSED);
    next();
  };

/**
 * Counts a login against the account it names, before the password is checked, whether the account
 * exists or not (so the answer does not tell). The key is a digest: Redis never holds the email.
 */
export async function loginAccountLimit(limiters: AuthLimiters, email: string): Promise<void> {
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  await take(limiters.loginAccountLimiter, `login-account:${digest}`, LOGIN_REFUSED);
}

/** Counts every call of the signup route against its address, like login. */
export const signupLimit =
  (limiters: AuthLimiters): BeforeHook =>
  async (req, _res, next) => {
    await take(limiters.signupLimiter, `signup:${clientAddress(req.ip).address}`, SIGNUP_REFUSED);
    next();
  };
