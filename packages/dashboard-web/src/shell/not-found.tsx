import { Link } from 'react-router';
import { PageHeader } from '../components/page-header.tsx';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. <Link to="/">Go to the overview</Link>.
      </p>
    </>
  );
}
