// The undici dispatcher deliveries go out through: every connection it opens is checked by the
// policy, as the HTTPS agent's are. Host names go through the policy's lookup (the check and the
// connect use the same answer); IP literals never reach a lookup, so they are checked here first.
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { NetguardRefusedError } from './errors.ts';
import type { NetPolicy } from './policy.ts';

export interface GuardedDispatcherOptions {
  /** Connections kept per origin (scheme, host and port). */
  connections: number;
  /** TCP and TLS set-up; a host that never accepts fails fast. */
  connectTimeoutMs: number;
  /** Extra trusted CA certificates (PEM); NODE_EXTRA_CA_CERTS is honoured without it. */
  ca?: string;
}

/** An undici Agent whose connector refuses what the policy refuses, before any socket is opened. */
export function createGuardedDispatcher(policy: NetPolicy, opts: GuardedDispatcherOptions): Agent {
  const connectTls = buildConnector({
    timeout: opts.connectTimeoutMs,
    lookup: policy.lookup,
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
  const connect: buildConnector.connector = (options, callback) => {
    // A unix socket path would bypass addresses altogether.
    if (options.socketPath) {
      callback(new NetguardRefusedError('unix socket connections are not allowed'), null);
      return;
    }
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) {
      const verdict = policy.isAllowedAddress(host);
      if (!verdict.ok) {
        callback(new NetguardRefusedError(verdict.reason), null);
        return;
      }
    }
    connectTls(options, callback);
  };
  return new Agent({ connect, connections: opts.connections });
}
