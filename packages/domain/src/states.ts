export const eventStatuses = ['QUEUED', 'DELIVERED', 'FAILED', 'RETRYING', 'EXPIRED', 'REPLAYED'] as const;
export type EventStatus = (typeof eventStatuses)[number];

export const mailboxStates = ['UNREAD', 'CLAIMED', 'ACKNOWLEDGED', 'EXPIRED'] as const;
export type MailboxState = (typeof mailboxStates)[number];

export const targetKinds = ['webhook', 'mailbox', 'a2a'] as const;
export type TargetKind = (typeof targetKinds)[number];

export const billingStatuses = ['pending', 'active', 'grace', 'suspended', 'exempt'] as const;
export type BillingStatus = (typeof billingStatuses)[number];

/** Billing states in which ingestion and API-key creation are refused with 402. */
export const billingBlocks = (s: BillingStatus): boolean => s === 'pending' || s === 'suspended';

/** Replay moves the original to REPLAYED only once it is settled; an item in flight keeps its state. */
export const settledStatuses: readonly EventStatus[] = ['DELIVERED', 'FAILED', 'EXPIRED'];
