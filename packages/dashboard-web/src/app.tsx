// The routes. Pages live in src/pages/<name>/; the shell (sign-in, layout, session) in src/shell and src/auth.
import { Route, Routes } from 'react-router';
import { LoginPage } from './auth/login-page.tsx';
import { RequireSession, SignedOutWatcher } from './auth/require-session.tsx';
import { EventDetailPage } from './pages/events/event-detail.tsx';
import { EventsPage } from './pages/events/index.tsx';
import InboxPage from './pages/inbox/index.tsx';
import KeysPage from './pages/keys/index.tsx';
import MailboxesPage from './pages/mailboxes/index.tsx';
import OrgPage from './pages/org/index.tsx';
import { OverviewPage } from './pages/overview/index.tsx';
import { TargetDetailPage } from './pages/targets/target-detail.tsx';
import { TargetsPage } from './pages/targets/index.tsx';
import { Layout } from './shell/layout.tsx';
import { NotFoundPage } from './shell/not-found.tsx';

export function App() {
  return (
    <>
      <SignedOutWatcher />
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route
          element={
            <RequireSession>
              <Layout />
            </RequireSession>
          }
        >
          <Route index element={<OverviewPage />} />
          <Route path="targets" element={<TargetsPage />} />
          <Route path="targets/:id" element={<TargetDetailPage />} />
          <Route path="events" element={<EventsPage />} />
          <Route path="events/:id" element={<EventDetailPage />} />
          <Route path="mailboxes" element={<MailboxesPage />} />
          <Route path="mailboxes/:id" element={<MailboxesPage />} />
          <Route path="keys" element={<KeysPage />} />
          <Route path="org" element={<OrgPage />} />
          <Route path="inbox" element={<InboxPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </>
  );
}
