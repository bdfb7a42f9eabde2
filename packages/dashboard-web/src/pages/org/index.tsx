// Organization & billing: the workspace's name, and billing as the API reports it while the beta
// keeps live billing disabled (status, usage, invoices and reconciliation).
import { PageHeader } from '../../components/page-header.tsx';
import { BillingDisabledBanner, BillingSection, UsageSection } from './billing-section.tsx';
import { InvoicesSection, ReconciliationSection } from './ledger-section.tsx';
import { OrgSection } from './org-section.tsx';
import './org.css';

export default function OrgPage() {
  return (
    <>
      <PageHeader
        title="Organization & billing"
        subtitle="Your workspace, its usage this month and its billing."
      />
      <BillingDisabledBanner />
      <OrgSection />
      <div className="grid two">
        <BillingSection />
        <UsageSection />
      </div>
      <ReconciliationSection />
      <InvoicesSection />
    </>
  );
}
