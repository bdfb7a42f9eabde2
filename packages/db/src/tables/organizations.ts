import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { BillingStatus } from '@evds/domain';

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  billing_status: Generated<BillingStatus>;
  billing_grace_ends_at: Date | null;
  processor_customer_id: string | null;
  has_payment_method: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type Organization = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;
