// The frame around every signed-in page: a header with the organization and the sign-out buttons, the
// main navigation, and the page itself in <main>.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { api } from '../api.ts';
import { ErrorNotice } from '../components/status.tsx';
import { useAppConfig, useMe, useOrg } from './queries.ts';

const links = [
  { to: '/', label: 'Overview', end: true },
  { to: '/targets', label: 'Targets' },
  { to: '/events', label: 'Events' },
  { to: '/mailboxes', label: 'Mailboxes' },
  { to: '/keys', label: 'API keys' },
  { to: '/org', label: 'Organization & billing' },
];

function SignOutButtons() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const signOut = useMutation({
    mutationFn: (path: '/app/logout' | '/app/logout-all') => api(path, { method: 'POST' }),
    onSuccess: () => {
      qc.clear();
      void navigate('/login', { replace: true });
    },
  });
  return (
    <div className="signout">
      <button
        type="button"
        className="button ghost"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate('/app/logout')}
      >
        Sign out
      </button>
      <button
        type="button"
        className="button ghost"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate('/app/logout-all')}
      >
        Sign out everywhere
      </button>
      <ErrorNotice error={signOut.error} />
    </div>
  );
}

export function Layout() {
  const org = useOrg();
  const me = useMe();
  const config = useAppConfig();
  const nav = config.data?.inbox ? [...links, { to: '/inbox', label: 'Inbox' }] : links;
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            evds
          </span>
          <span className="org-name" title="Organization">
            {org.data?.name ?? me.data?.org.name ?? ''}
          </span>
          {config.data && config.data.environment !== 'production' && (
            <span className="badge neutral">{config.data.environment}</span>
          )}
        </div>
        <div className="topbar-right">
          {me.data?.user && <span className="user-email">{me.data.user.email}</span>}
          <SignOutButtons />
        </div>
      </header>
      <div className="body">
        <nav className="sidebar" aria-label="Main">
          <ul>
            {nav.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={'end' in l ? l.end : false}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
