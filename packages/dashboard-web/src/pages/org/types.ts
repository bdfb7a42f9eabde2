// Billing shapes that only this page reads, from the OpenAPI document (see src/types.ts; Unix seconds).
import type { Answer } from '@evds/client/types';

export type Invoices = Answer<'/api/v1/billing/invoices'>;
export type Invoice = Invoices['invoices'][number];
export type Reconciliation = Answer<'/api/v1/billing/reconciliation'>;
