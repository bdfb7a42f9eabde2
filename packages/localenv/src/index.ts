export { ensureBacking } from './ensure-backing.ts';
export type { BackingServers, EnsureBackingOptions } from './ensure-backing.ts';
export { createDatabaseIfMissing } from './create-database.ts';
export { databaseUrlOf, serverUrlOf } from './urls.ts';
export { startRestartablePostgres, startRestartableRedis } from './restartable.ts';
export type { RestartableOptions, RestartableRedis, RestartableServer } from './restartable.ts';
export { unusedPort } from './ports.ts';
export { createCertificateAuthority, issueServerCertificate } from './certificates.ts';
export type { KeyPair } from './certificates.ts';
