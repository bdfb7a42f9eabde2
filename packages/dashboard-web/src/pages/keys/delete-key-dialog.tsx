// Deleting a key asks first, in the shared modal dialog. A refusal (the last key, the key in use) is
// shown inside the dialog, as the API words it, and the dialog stays open until cancelled.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorNotice } from '../../components/status.tsx';
import { keysQueryKey, type ApiKey } from './types.ts';

export function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      api<{ deleted: true }>(`/api/v1/keys/${encodeURIComponent(apiKey.id)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keysQueryKey });
      onClose();
    },
  });

  return (
    <ConfirmDialog
      open
      title="Delete API key?"
      confirmLabel={remove.isPending ? 'Deleting…' : 'Delete'}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        The key “{apiKey.name}” (<span className="mono">{apiKey.prefix}…</span>) stops working at once:
        services using it get 401.
      </p>
      <ErrorNotice error={remove.error} />
    </ConfirmDialog>
  );
}
