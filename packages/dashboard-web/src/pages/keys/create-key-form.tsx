// Creating a key takes a name. The answer holds the full key: it is shown here once, with a Copy
// button, and forgotten when the notice is dismissed or the page is left.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { SecretOnce } from '../../components/secret-once.tsx';
import { ErrorNotice } from '../../components/status.tsx';
import { keysQueryKey, type CreatedKey } from './types.ts';

export function CreateKeyForm() {
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (keyName: string) =>
      api<CreatedKey>('/api/v1/keys', { method: 'POST', body: { name: keyName } }),
    onSuccess: (k) => {
      setName('');
      setCreated(k);
      return queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCreated(null);
    create.mutate(name);
  };

  return (
    <section className="card section" aria-labelledby="keys-create-heading">
      <h2 id="keys-create-heading">Create a key</h2>
      <form className="keys-form" onSubmit={submit}>
        <div className="keys-field">
          <label htmlFor="keys-new-name">Key name</label>
          <input
            id="keys-new-name"
            name="name"
            type="text"
            required
            maxLength={200}
            autoComplete="off"
            placeholder="e.g. production ingest"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <ErrorNotice error={create.error} />
      {created && (
        <SecretOnce title={`New API key “${created.name}”`} secret={created.key}>
          <p className="keys-warning">
            Store it somewhere safe, like a secret manager: the API keeps only a hash of it.
          </p>
          <button type="button" className="button small" onClick={() => setCreated(null)}>
            Done, I have copied it
          </button>
        </SecretOnce>
      )}
    </section>
  );
}
