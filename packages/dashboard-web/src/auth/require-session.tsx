// Every page but sign-in needs a live session: GET /app/me decides at start, and any later 401
// (onSignedOut, from api.ts) drops the cached data and returns to sign-in, remembering where the user was.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, onSignedOut } from '../api.ts';
import { ErrorNotice, Loading } from '../components/status.tsx';
import { meKey, useMe } from '../shell/queries.ts';

export interface LoginState {
  from?: string;
  reason?: 'expired';
}

export function SignedOutWatcher() {
  const navigate = useNavigate();
  const location = useLocation();
  const qc = useQueryClient();
  const here = location.pathname + location.search;
  useEffect(
    () =>
      onSignedOut(() => {
        // Without a session seen before, this is the start-up check: RequireSession sends to sign-in.
        if (qc.getQueryData(meKey) === undefined || location.pathname === '/login') return;
        qc.clear();
        void navigate('/login', {
          replace: true,
          state: { from: here, reason: 'expired' } satisfies LoginState,
        });
      }),
    [navigate, qc, here, location.pathname],
  );
  return null;
}

export function RequireSession({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading label="Checking your session…" />;
  if (me.error instanceof ApiError && me.error.status === 401)
    return (
      <Navigate
        to="/login"
        replace
        state={{ from: location.pathname + location.search } satisfies LoginState}
      />
    );
  if (me.error)
    return (
      <main className="center-card">
        <h1>Dashboard unavailable</h1>
        <ErrorNotice error={me.error} />
        <button type="button" className="button" onClick={() => void me.refetch()}>
          Try again
        </button>
      </main>
    );
  return <>{children}</>;
}
