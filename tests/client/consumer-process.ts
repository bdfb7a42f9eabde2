// A mailbox consumer as its own process, for the suite that SIGKILLs a consumer mid-message: it runs
// consumeMailbox with one slot and a handler that never finishes, and prints one JSON line per message
// it starts handling. Its heartbeats keep the lease for as long as the process lives.
// Environment: EVDS_URL (the API), EVDS_API_KEY, EVDS_MAILBOX.
import { createEvdsClient } from '@evds/client';

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const client = createEvdsClient({ baseUrl: need('EVDS_URL'), apiKey: need('EVDS_API_KEY') });

await client.consumeMailbox(
  need('EVDS_MAILBOX'),
  async (message) => {
    console.log(
      JSON.stringify({ handling: message.id, at: Date.now(), lease_expires_at: message.lease_expires_at }),
    );
    // Handles until killed: only the heartbeat timers keep running.
    await new Promise<never>(() => {});
  },
  { concurrency: 1, pollIntervalMs: 100 },
);
