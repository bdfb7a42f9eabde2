export { ensureLocalCa } from './ca.ts';
export type { LocalCa } from './ca.ts';
export { createLocalInbox, INBOX_BODY_LIMIT_BYTES, INBOX_KEPT_REQUESTS } from './inbox.ts';
export type { LocalInbox, LocalInboxOptions } from './inbox.ts';
export type { InboxRequest } from './receiver.ts';
export type { SignatureCheck } from './verify.ts';
export { CONTROL_BODY_LIMIT_BYTES } from './control.ts';
