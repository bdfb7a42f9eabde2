export { createNetPolicy, hostTableResolve, systemResolve } from './policy.ts';
export type { AddressCheck, NetPolicy, NetPolicyOptions, Resolve, UrlCheck } from './policy.ts';
export { createGuardedAgent } from './agent.ts';
export type { GuardedAgentOptions } from './agent.ts';
export { NETGUARD_REFUSED, NetguardRefusedError, isNetguardRefusal } from './errors.ts';
