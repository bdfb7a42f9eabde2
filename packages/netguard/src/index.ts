export { createNetPolicy, hostTableResolve } from './policy.ts';
export type { AddressCheck, NetPolicy, NetPolicyOptions, Resolve, UrlCheck } from './policy.ts';
export { createGuardedAgent } from './agent.ts';
export type { GuardedAgentOptions } from './agent.ts';
export { NETGUARD_REFUSED, NetguardRefusedError, isNetguardRefusal } from './errors.ts';
export { DNS_DEFAULTS, createDnsResolver } from './dns-resolver.ts';
export type { DnsOptions, DnsResolver, DnsResolverOptions, DnsResolverStats } from './dns-resolver.ts';
