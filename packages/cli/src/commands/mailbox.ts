// evds mailbox: list a mailbox's messages, and consume them by running a command per message.
import type { Command } from 'commander';
import type { ConsumeEvent } from '@evds/client';
import { action, intOption, type Ctx } from '../context.ts';
import { CliError, EXIT_FAILURE } from '../errors.ts';
import { isoSeconds, table } from '../output.ts';
import { createLive } from '../progress.ts';
import { createStopper } from '../stop.ts';
import { CommandFailed, runForMessage } from '../consume-runner.ts';
import { InvalidArgumentError } from 'commander';

const states = ['UNREAD', 'CLAIMED', 'ACKNOWLEDGED', 'EXPIRED'] as const;
type State = (typeof states)[number];

function parseState(raw: string): State {
  const upper = raw.toUpperCase();
  if ((states as readonly string[]).includes(upper)) return upper as State;
  throw new InvalidArgumentError(`expected one of ${states.join(', ')}`);
}

interface ConsumeOpts {
  max?: number;
  concurrency: number;
  pollInterval: number;
}

export function registerMailbox(program: Command): void {
  const mailbox = program.command('mailbox').description("read and consume a mailbox target's messages");

  mailbox
    .command('list')
    .description("a page of a mailbox's messages, oldest first")
    .argument('<mailbox>', 'mailbox target id')
    .option('--status <state>', states.join(', '), parseState)
    .option('--limit <n>', 'page size, 1 to 100 (default 50)', intOption(1))
    .option('--after <cursor>', 'the next_cursor of the previous page')
    .action(
      action<{ status?: State; limit?: number; after?: string }>(async (ctx, [id], opts) => {
        const page = await ctx.client().mailboxes.list(id!, {
          status: opts.status,
          limit: opts.limit === undefined ? undefined : String(opts.limit),
          after: opts.after,
        });
        ctx.out.result(page, () => {
          const rows = page.messages.map((m) => ({ ...m, created_at: isoSeconds(m.created_at) }));
          const more = page.next_cursor ? `\nmore: --after ${page.next_cursor}` : '';
          return table(rows, ['id', 'state', 'event_type', 'created_at', 'payload_size']) + more;
        });
      }),
    );

  mailbox
    .command('consume')
    .description('run a command for each message: payload on its stdin, exit 0 acknowledges it')
    .argument('<mailbox>', 'mailbox target id')
    .argument('<command...>', 'the command and its arguments (after --)')
    .option('--max <n>', 'stop after n messages were handled (acked or failed)', intOption(1))
    .option('--concurrency <n>', 'messages handled at once', intOption(1), 1)
    .option('--poll-interval <ms>', 'wait between polls of an empty mailbox', intOption(50), 1000)
    .addHelpText(
      'after',
      `
For each message the command runs with the payload (JSON) on stdin and EVDS_MESSAGE_ID,
EVDS_MAILBOX_ID, EVDS_EVENT_TYPE and EVDS_CORRELATION_ID in its environment. Exit 0 acknowledges
the message; any other exit leaves it unacknowledged, so it is offered again once its lease lapses.
The lease is extended while the command runs, however long it takes.

Without --max it polls until SIGINT/SIGTERM, lets commands in flight finish (they run in their own
process group, so Ctrl-C does not reach them; a second Ctrl-C stops them and their messages lapse)
and exits 0. With --max n it stops after n messages and exits 1 if any command failed (or a lease
was lost), so a batch run in a script or cron job reports failure. Each outcome is printed as a line (--json: one
object per line, then {"type":"summary",...}); the command's own stdout goes to stderr with --json.

Examples:
  $ evds mailbox consume 5e7d... -- ./handle-order.sh
  $ evds mailbox consume 5e7d... --max 10 --concurrency 4 -- node worker.js --dry-run
  $ evds mailbox consume 5e7d... --json -- sh -c 'jq .order >> orders.log'`,
    )
    .action(action<ConsumeOpts>(async (ctx, [id, ...argv], opts) => consume(ctx, id!, argv, opts)));
}

async function consume(ctx: Ctx, mailboxId: string, argv: string[], opts: ConsumeOpts): Promise<void> {
  const client = ctx.client();
  const stopper = createStopper();
  const live = createLive(ctx.out, 'acked {acked} | failed {failed} | lost {lost}', {
    acked: 0,
    failed: 0,
    lost: 0,
  });
  let unstartable: CommandFailed | undefined;
  const counts = { acked: 0, failed: 0, lost: 0 };
  const onEvent = (e: ConsumeEvent) => {
    if (e.type === 'acked') counts.acked++;
    if (e.type === 'failed') counts.failed++;
    if (e.type === 'lease_lost') counts.lost++;
    if (e.error instanceof CommandFailed && e.error.cannotStart) {
      unstartable = e.error;
      stopper.stop('cannot-start');
    }
    printEvent(ctx, e);
    live.update(counts);
  };
  let summary;
  try {
    summary = await client.consumeMailbox(
      mailboxId,
      (message, { signal }) => runForMessage(argv, message, { signal, stdoutFd: ctx.out.json ? 2 : 1 }),
      {
        concurrency: opts.concurrency,
        max: opts.max,
        pollIntervalMs: opts.pollInterval,
        signal: stopper.signal,
        onEvent,
      },
    );
  } finally {
    live.stop();
    stopper.dispose();
  }
  if (unstartable) throw new CliError('cannot_run_command', unstartable.message);
  ctx.out.record(
    { type: 'summary', ...summary },
    () => `done: ${summary.acked} acked, ${summary.failed} failed, ${summary.lost} lost`,
  );
  if (opts.max !== undefined && summary.failed + summary.lost > 0) process.exitCode = EXIT_FAILURE;
}

function printEvent(ctx: Ctx, e: ConsumeEvent): void {
  const reason = e.error instanceof Error ? e.error.message : undefined;
  if (ctx.out.json) {
    ctx.out.record({ type: e.type, message_id: e.messageId, ...(reason ? { error: reason } : {}) }, () => '');
    return;
  }
  if (e.type === 'acked') ctx.out.record({}, () => `acked   ${e.messageId}`);
  if (e.type === 'failed')
    ctx.out.record({}, () => `failed  ${e.messageId}: ${reason ?? 'error'} (left to lapse)`);
  if (e.type === 'lease_lost') ctx.out.record({}, () => `lost    ${e.messageId}: lease lost, not acked`);
}
