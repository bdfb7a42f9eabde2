// A message's state as a coloured pill, in the shared badge tones.
import type { MessageState } from './types.ts';

const tone: Record<MessageState, string> = {
  UNREAD: 'info',
  CLAIMED: 'warning',
  ACKNOWLEDGED: 'success',
  EXPIRED: 'neutral',
};

export function StateBadge({ state }: { state: MessageState }) {
  return <span className={`badge ${tone[state]}`}>{state}</span>;
}
