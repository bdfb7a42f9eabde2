// Creating a target of each kind. A webhook's signing secret is in the create answer only, so it is shown
// here once with a copy button; a refusal (422 from the network policy, an unusable Agent Card, the
// target limit) is shown with the API's reason.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api.ts';
import { SecretOnce } from '../../components/secret-once.tsx';
import { ErrorNotice } from '../../components/status.tsx';
import { useAppConfig } from '../../shell/queries.ts';
import type { Target, TargetKind } from '../../types.ts';
import { targetsKey } from './queries.ts';

type Created = { target: Target & { secret?: string }; warnings?: string[] };

const kinds: { value: TargetKind; label: string; hint: string }[] = [
  { value: 'webhook', label: 'Webhook', hint: 'Signed HTTPS POSTs to your URL' },
  { value: 'mailbox', label: 'Mailbox', hint: 'A queue your consumers pull from' },
  { value: 'a2a', label: 'A2A agent', hint: 'Hand items to an agent from its Agent Card' },
];

function bodyFor(kind: TargetKind, f: Record<string, string>): Record<string, unknown> {
  const common = { kind, name: f.name, ...(f.description ? { description: f.description } : {}) };
  switch (kind) {
    case 'webhook':
      return { ...common, url: f.url };
    case 'mailbox':
      return common;
    case 'a2a':
      return {
        ...common,
        agent_card_url: f.card,
        auth: f.auth === 'bearer' ? { type: 'bearer', token: f.token } : { type: 'none' },
      };
  }
}

export function CreateTarget({ onClose }: { onClose: () => void }) {
  const id = useId();
  const qc = useQueryClient();
  const config = useAppConfig();
  const [kind, setKind] = useState<TargetKind>('webhook');
  const [f, setF] = useState<Record<string, string>>({
    name: '',
    description: '',
    url: '',
    card: '',
    auth: 'none',
    token: '',
  });
  const set = (k: string) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const create = useMutation({
    mutationFn: () => api<Created>('/api/v1/targets', { method: 'POST', body: bodyFor(kind, f) }),
    onSuccess: () => qc.invalidateQueries({ queryKey: targetsKey }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };

  if (create.data) {
    const t = create.data.target;
    return (
      <section className="card section" aria-labelledby={`${id}-done`}>
        <h2 id={`${id}-done`}>Target “{t.name}” created</h2>
        {t.secret && (
          <SecretOnce title="Signing secret" secret={t.secret}>
            <p className="small muted">
              Receivers verify deliveries with it (Standard Webhooks, HMAC-SHA256).
            </p>
          </SecretOnce>
        )}
        {create.data.warnings && create.data.warnings.length > 0 && (
          <div className="notice warning" role="note">
            <strong>Agent Card warnings</strong>
            <ul>
              {create.data.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="actions">
          <Link className="button primary" to={`/targets/${t.id}`}>
            Open target
          </Link>
          <button type="button" className="button" onClick={onClose}>
            Done
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="card section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New target</h2>
      <form onSubmit={submit} className="form">
        <fieldset className="kind-choice">
          <legend>Kind</legend>
          {kinds.map((k) => (
            <label key={k.value} className={kind === k.value ? 'choice chosen' : 'choice'}>
              <input
                type="radio"
                name={`${id}-kind`}
                value={k.value}
                checked={kind === k.value}
                onChange={() => setKind(k.value)}
              />
              <span className="choice-label">{k.label}</span>
              <span className="choice-hint">{k.hint}</span>
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} required maxLength={200} value={f.name} onChange={set('name')} />
        {kind === 'webhook' && (
          <>
            <label htmlFor={`${id}-url`}>URL</label>
            <input
              id={`${id}-url`}
              type="url"
              required
              placeholder="https://example.com/webhooks"
              aria-describedby={`${id}-url-hint`}
              value={f.url}
              onChange={set('url')}
            />
            <p id={`${id}-url-hint`} className="hint">
              HTTPS on a public address.{' '}
              {config.data?.inbox_url && (
                <>
                  On this machine you can use the local inbox:{' '}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setF({ ...f, url: config.data.inbox_url ?? '' })}
                  >
                    Use the local inbox URL
                  </button>
                </>
              )}
            </p>
          </>
        )}
        {kind === 'a2a' && (
          <>
            <label htmlFor={`${id}-card`}>Agent Card URL</label>
            <input
              id={`${id}-card`}
              type="url"
              required
              placeholder="https://agent.example.com/.well-known/agent-card.json"
              value={f.card}
              onChange={set('card')}
            />
            <fieldset className="inline-choice">
              <legend>Authentication</legend>
              <label>
                <input
                  type="radio"
                  name={`${id}-auth`}
                  value="none"
                  checked={f.auth === 'none'}
                  onChange={set('auth')}
                />{' '}
                None
              </label>
              <label>
                <input
                  type="radio"
                  name={`${id}-auth`}
                  value="bearer"
                  checked={f.auth === 'bearer'}
                  onChange={set('auth')}
                />{' '}
                Bearer
              </label>
            </fieldset>
            {f.auth === 'bearer' && (
              <>
                <label htmlFor={`${id}-token`}>Bearer token</label>
                <input
                  id={`${id}-token`}
                  type="password"
                  autoComplete="off"
                  required
                  aria-describedby={`${id}-token-hint`}
                  value={f.token}
                  onChange={set('token')}
                />
                <p id={`${id}-token-hint`} className="hint">
                  Stored encrypted and never shown again.
                </p>
              </>
            )}
          </>
        )}
        <label htmlFor={`${id}-description`}>
          Description <span className="muted">(optional)</span>
        </label>
        <input
          id={`${id}-description`}
          maxLength={2000}
          value={f.description}
          onChange={set('description')}
        />
        <ErrorNotice error={create.error} />
        <div className="actions">
          <button type="submit" className="button primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create target'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
