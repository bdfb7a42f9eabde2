// The three states every page shows besides its data: loading, empty, and an error as the server said it.
import type { ReactNode } from 'react';
import { ApiError } from '../api.ts';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="status loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="status empty">{children}</p>;
}

/** Shows the contract's message word for word, with the status and, on 429/503, when to try again. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const e =
    error instanceof ApiError
      ? error
      : new ApiError(
          0,
          'network',
          error instanceof Error ? error.message : typeof error === 'string' ? error : 'something went wrong',
        );
  return (
    <div className="status error" role="alert">
      <strong>{e.status > 0 ? `${e.status} ${e.code}` : 'Network error'}</strong>: {e.message}
      {e.retryAfter !== undefined && <> (try again in {e.retryAfter} s)</>}
    </div>
  );
}
