// evds events tail: follows new events and their outcomes by polling the event list (the service has
// no push channel). The first poll is the baseline: only events that appear after it are shown, then
// each status change until it settles. Events that fall off the listed page are read one by one.
import type { Command } from 'commander';
import type { EvdsClient, EventSummary } from '@evds/client';
import { action, intOption, type Ctx } from '../context.ts';
import { createLive } from '../progress.ts';
import { createStopper, pause, type Stopper } from '../stop.ts';
import { createTailTracker, type Change, type Observed } from '../tail-tracker.ts';

interface TailOpts {
  target?: string;
  type?: string;
  interval: number;
  maxEvents?: number;
  for?: number;
}

const PAGE = 100;
// Followed events off the page are read one by one; a cap keeps one poll's cost bounded.
const MAX_READS_PER_POLL = 20;

export function registerTail(events: Command): void {
  events
    .command('tail')
    .description('follow new events and their outcomes as they happen (Ctrl-C to stop)')
    .option('--target <id>', 'only this target')
    .option('--type <event-type>', 'only this event type')
    .option('--interval <ms>', 'poll every ms milliseconds', intOption(100), 1000)
    .option('--max-events <n>', 'stop once n new events were shown and all settled', intOption(1))
    .option('--for <seconds>', 'stop after this many seconds', intOption(1))
    .addHelpText(
      'after',
      `
Each new event is printed once, then each status change until it settles (DELIVERED, FAILED,
EXPIRED or REPLAYED). With --json, one object per line: {"type":"event",...} or
{"type":"status","id","from","to"}. On a terminal a live line counts seen/delivered/failed.

Examples:
  $ evds events tail --target 3f2a...
  $ evds events tail --json --max-events 1 --for 30 | jq .`,
    )
    .action(
      action<TailOpts>(async (ctx, _args, opts) => {
        const stopper = createStopper({ forSeconds: opts.for });
        try {
          await follow(ctx, opts, stopper);
        } finally {
          stopper.dispose();
        }
      }),
    );
}

async function follow(ctx: Ctx, opts: TailOpts, stopper: Stopper): Promise<void> {
  const client = ctx.client();
  const list = () =>
    client.events.list({ endpoint_id: opts.target, event_type: opts.type, limit: String(PAGE) });
  const tracker = createTailTracker();
  tracker.baseline((await list()).events);
  process.stderr.write('following new events (Ctrl-C to stop)\n');
  const live = createLive(ctx.out, 'seen {seen} | delivered {delivered} | failed {failed}', {
    ...tracker.counts,
  });
  try {
    while (!stopper.signal.aborted) {
      await pause(opts.interval, stopper.signal);
      if (stopper.signal.aborted) break;
      const page = await list();
      const changes = tracker.observe(page.events);
      changes.push(...tracker.observe(await offPage(client, page.events, tracker.watching())));
      for (const change of changes) print(ctx, change);
      live.update({ ...tracker.counts });
      if (opts.maxEvents !== undefined && tracker.doneAfter(opts.maxEvents)) stopper.stop('max-events');
    }
  } finally {
    live.stop();
  }
  const { seen, delivered, failed } = tracker.counts;
  process.stderr.write(`stopped: ${seen} new events, ${delivered} delivered, ${failed} failed\n`);
}

/** Followed events that the listed page no longer shows, read by id. */
async function offPage(
  client: EvdsClient,
  listed: readonly EventSummary[],
  watching: string[],
): Promise<Observed[]> {
  const onPage = new Set(listed.map((e) => e.id));
  const missing = watching.filter((id) => !onPage.has(id)).slice(0, MAX_READS_PER_POLL);
  return Promise.all(missing.map((id) => client.events.get(id)));
}

function print(ctx: Ctx, change: Change): void {
  if (change.kind === 'new') {
    const e = change.event;
    ctx.out.record({ type: 'event', ...e }, () =>
      [e.created_at, e.id, e.status, e.event_type ?? '-', `target ${e.endpoint_id}`].join('  '),
    );
  } else {
    ctx.out.record(
      { type: 'status', id: change.id, from: change.from, to: change.to },
      () => `${' '.repeat(26)}${change.id}  ${change.from} -> ${change.to}`,
    );
  }
}
