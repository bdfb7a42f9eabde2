// Helpers of the consumeMailbox suite: filling a mailbox through the client, recording when each
// consumer's handler ran for each message (to find overlaps across consumers), and a consumer running
// as its own `node` process that can be SIGKILLed mid-message.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { EvdsClient } from '@evds/client';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function newMailbox(client: EvdsClient, name = 'inbox'): Promise<string> {
  const { target } = await client.targets.create({ kind: 'mailbox', name });
  return target.id;
}

/** Sends `n` messages `{i}` through client.send, `parallel` at a time; answers their ids in order. */
export async function fill(client: EvdsClient, mailbox: string, n: number, parallel = 16): Promise<string[]> {
  const ids: string[] = new Array<string>(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) ids[i] = (await client.send(mailbox, { i })).id;
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}

export interface Interval {
  consumer: string;
  id: string;
  start: number;
  end: number;
}

/** Every pair of intervals of one message by two different consumers that overlap in time. */
export function overlaps(intervals: Interval[]): [Interval, Interval][] {
  const byId = new Map<string, Interval[]>();
  for (const i of intervals) byId.set(i.id, [...(byId.get(i.id) ?? []), i]);
  const found: [Interval, Interval][] = [];
  for (const list of byId.values())
    for (const [n, a] of list.entries())
      for (const b of list.slice(n + 1))
        if (a.consumer !== b.consumer && a.start < b.end && b.start < a.end) found.push([a, b]);
  return found;
}

export interface ChildConsumer {
  child: ChildProcess;
  /** The first message the child started handling, with when (its clock is this machine's). */
  handling: Promise<{ id: string; at: number }>;
  /** SIGKILL, resolved once the process is gone; answers the time of the kill. */
  kill(): Promise<number>;
}

/** Runs tests/client/consumer-process.ts as a real `node` process with its own key. */
export function spawnConsumer(env: { url: string; apiKey: string; mailbox: string }): ChildConsumer {
  const child = spawn(process.execPath, ['tests/client/consumer-process.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, EVDS_URL: env.url, EVDS_API_KEY: env.apiKey, EVDS_MAILBOX: env.mailbox },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  child.stderr?.on('data', (c: Buffer) => errors.push(c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handling = new Promise<{ id: string; at: number }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as { handling: string; at: number };
      resolve({ id: parsed.handling, at: parsed.at });
    });
    void exited.then(() => reject(new Error(`consumer process exited: ${errors.join('')}`)));
  });
  return {
    child,
    handling,
    kill: async () => {
      const at = Date.now();
      child.kill('SIGKILL');
      await exited;
      return at;
    },
  };
}
