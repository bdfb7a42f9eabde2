// The four filters of GET /api/v1/events. They are edited in a form and applied to the address on
// submit, so typing does not fire a request per key.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { eventStatuses, type Target } from '../../types.ts';

export const filterKeys = ['endpoint_id', 'status', 'event_type', 'correlation_id'] as const;
type Filters = Record<(typeof filterKeys)[number], string>;

export function EventFilters({ targets }: { targets: Target[] }) {
  const [params, setParams] = useSearchParams();
  const current = Object.fromEntries(filterKeys.map((k) => [k, params.get(k) ?? ''])) as Filters;
  const [f, setF] = useState<Filters>(current);
  // The address may change from outside (a link, back/forward): the form follows it.
  const [seen, setSeen] = useState(params.toString());
  if (seen !== params.toString()) {
    setSeen(params.toString());
    setF(current);
  }
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const n = new URLSearchParams();
    for (const k of filterKeys) if (f[k].trim()) n.set(k, f[k].trim());
    setParams(n);
  };
  const webhookish = targets.filter((t) => t.kind !== 'mailbox');
  const known = webhookish.some((t) => t.id === f.endpoint_id);
  return (
    <form className="filters card" onSubmit={apply} aria-label="Filter events">
      <div className="field">
        <label htmlFor="filter-target">Target</label>
        <select id="filter-target" value={f.endpoint_id} onChange={set('endpoint_id')}>
          <option value="">All targets</option>
          {!known && f.endpoint_id && <option value={f.endpoint_id}>{f.endpoint_id}</option>}
          {webhookish.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={f.status} onChange={set('status')}>
          <option value="">Any status</option>
          {eventStatuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-type">Event type</label>
        <input id="filter-type" value={f.event_type} maxLength={200} onChange={set('event_type')} />
      </div>
      <div className="field">
        <label htmlFor="filter-correlation">Correlation ID</label>
        <input
          id="filter-correlation"
          value={f.correlation_id}
          maxLength={128}
          onChange={set('correlation_id')}
        />
      </div>
      <div className="field buttons">
        <button type="submit" className="button primary">
          Apply filters
        </button>
        <button type="button" className="button" onClick={() => setParams(new URLSearchParams())}>
          Clear
        </button>
      </div>
    </form>
  );
}
