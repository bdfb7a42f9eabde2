// The HTTPS agent every outbound delivery uses. Host names go through the policy's lookup; IP
// literals never reach a lookup function in Node, so the agent checks them itself before connecting.
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { NetguardRefusedError } from './errors.ts';
import type { NetPolicy } from './policy.ts';

/** Any https.Agent option (e.g. `ca` for a test CA) except `lookup`, which the policy owns. */
export type GuardedAgentOptions = Omit<https.AgentOptions, 'lookup'>;

type OnCreate = (err: Error | null, stream: Duplex) => void;

class GuardedAgent extends https.Agent {
  readonly #policy: NetPolicy;

  constructor(policy: NetPolicy, opts: GuardedAgentOptions) {
    super({ keepAlive: true, ...opts, lookup: policy.lookup });
    this.#policy = policy;
  }

  override createConnection(options: https.RequestOptions, callback?: OnCreate): Duplex | null | undefined {
    const refusal = this.#refusal(options);
    if (!refusal) return super.createConnection(options, callback);
    if (!callback) throw refusal;
    // The agent's callback accepts an error without a stream; the type just does not say so.
    callback(refusal, undefined as unknown as Duplex);
    return undefined;
  }

  #refusal(options: https.RequestOptions): NetguardRefusedError | null {
    // A unix socket path would bypass addresses altogether.
    if (options.socketPath) return new NetguardRefusedError('unix socket connections are not allowed');
    const host = options.host ?? options.hostname ?? '';
    if (isIP(host) === 0) return null;
    const verdict = this.#policy.isAllowedAddress(host);
    return verdict.ok ? null : new NetguardRefusedError(verdict.reason);
  }
}

export function createGuardedAgent(policy: NetPolicy, opts: GuardedAgentOptions = {}): https.Agent {
  return new GuardedAgent(policy, opts);
}
