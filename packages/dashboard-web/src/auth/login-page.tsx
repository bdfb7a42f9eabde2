// Sign-in: the back end calls the API's login and keeps the session in an HttpOnly cookie; this page
// only ever sees the user. Afterwards the user goes where they were headed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../api.ts';
import { ErrorNotice } from '../components/status.tsx';
import { meKey } from '../shell/queries.ts';
import type { LoginState } from './require-session.tsx';

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as LoginState;
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  useEffect(() => {
    document.title = 'Sign in · evds';
  }, []);
  const login = useMutation({
    mutationFn: () => api('/app/login', { method: 'POST', body: { email, password } }),
    onSuccess: async () => {
      qc.clear();
      await qc.invalidateQueries({ queryKey: meKey });
      const to =
        state.from && state.from.startsWith('/') && !state.from.startsWith('/login') ? state.from : '/';
      void navigate(to, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <main className="login">
      <div className="login-card">
        <p className="brand-mark" aria-hidden="true">
          evds
        </p>
        <h1>Sign in</h1>
        <p className="subtitle">to the event delivery dashboard</p>
        {state.reason === 'expired' && !login.error && (
          <p className="notice info" role="status">
            Your session has ended. Sign in again to continue.
          </p>
        )}
        <ErrorNotice error={login.error} />
        <form onSubmit={submit} className="form">
          <label htmlFor="login-email">Email</label>
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" className="button primary wide" disabled={login.isPending}>
            {login.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
