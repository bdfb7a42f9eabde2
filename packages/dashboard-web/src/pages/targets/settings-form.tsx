// Name, description and enabled go through PATCH /api/v1/targets/:id; a webhook's event-type filter is
// held by the legacy endpoint route (PATCH /api/v1/endpoints/:id, event_types), so a save may make both.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import type { Target } from '../../types.ts';
import { targetsKey, useEndpointEventTypes } from './queries.ts';

function splitTypes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((t) => t !== ''))];
}

function Fields({ target, types }: { target: Target; types: string[] | null }) {
  const id = useId();
  const qc = useQueryClient();
  const [name, setName] = useState(target.name);
  const [description, setDescription] = useState(target.description);
  const [enabled, setEnabled] = useState(target.enabled);
  const [typesText, setTypesText] = useState(types?.join(', ') ?? '');
  const save = useMutation({
    mutationFn: async () => {
      const patch: Record<string, unknown> = {};
      if (name !== target.name) patch.name = name;
      if (description !== target.description) patch.description = description;
      if (enabled !== target.enabled) patch.enabled = enabled;
      if (Object.keys(patch).length > 0)
        await api(`/api/v1/targets/${target.id}`, { method: 'PATCH', body: patch });
      const nextTypes = splitTypes(typesText);
      if (types !== null && nextTypes.join('\n') !== types.join('\n'))
        await api(`/api/v1/endpoints/${target.id}`, { method: 'PATCH', body: { event_types: nextTypes } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: targetsKey }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="form" onSubmit={submit}>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        required
        maxLength={200}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <label htmlFor={`${id}-description`}>Description</label>
      <textarea
        id={`${id}-description`}
        rows={2}
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      {types !== null && (
        <>
          <label htmlFor={`${id}-types`}>Event types</label>
          <input
            id={`${id}-types`}
            aria-describedby={`${id}-types-hint`}
            placeholder="order.created, order.paid"
            value={typesText}
            onChange={(e) => setTypesText(e.target.value)}
          />
          <p id={`${id}-types-hint`} className="hint">
            Separate with commas. Empty receives every event type.
          </p>
        </>
      )}
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <ErrorNotice error={save.error} />
      {save.isSuccess && (
        <p className="notice success" role="status">
          Saved.
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

export function SettingsForm({ target }: { target: Target }) {
  const isWebhook = target.kind === 'webhook';
  const types = useEndpointEventTypes(target.id, isWebhook);
  return (
    <section className="card section" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      {!isWebhook ? (
        <Fields target={target} types={null} />
      ) : types.isPending ? (
        <Loading />
      ) : types.error ? (
        <ErrorNotice error={types.error} />
      ) : (
        <Fields target={target} types={types.data} />
      )}
    </section>
  );
}
