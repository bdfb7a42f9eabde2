// Deletion, behind a confirmation dialog. Its events and messages stay readable afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorNotice } from '../../components/status.tsx';
import type { Target } from '../../types.ts';
import { targetsKey } from './queries.ts';

export function DeleteTarget({ target }: { target: Target }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const del = useMutation({
    mutationFn: () => api(`/api/v1/targets/${target.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setOpen(false);
      await qc.invalidateQueries({ queryKey: targetsKey });
      void navigate('/targets');
    },
  });
  return (
    <section className="card section danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete target</h2>
      <p>New items for this target are refused once it is deleted. Its events and messages stay readable.</p>
      <ErrorNotice error={del.error} />
      <button type="button" className="button danger" onClick={() => setOpen(true)}>
        Delete
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete “${target.name}”?`}
        confirmLabel="Delete target"
        busy={del.isPending}
        onConfirm={() => del.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>This cannot be undone.</p>
        <ErrorNotice error={del.error} />
      </ConfirmDialog>
    </section>
  );
}
