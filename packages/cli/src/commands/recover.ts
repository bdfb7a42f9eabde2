// evds recover: replays a target's failed (or chosen) events from a time window in the background,
// then follows the recovery until it finishes, with a progress bar of replayed/matched on a terminal.
import { InvalidArgumentError, type Command } from 'commander';
import type { Answer } from '@evds/client';
import { action, intOption, type Ctx } from '../context.ts';
import { CliError, EXIT_FAILURE } from '../errors.ts';
import { fields, isoSeconds } from '../output.ts';
import { createLive } from '../progress.ts';
import { createStopper, pause } from '../stop.ts';
import { parseTime } from '../time.ts';

type Recovery = Answer<'/api/v1/recoveries/{id}'>;
const recoverable = ['FAILED', 'EXPIRED', 'DELIVERED'] as const;
type Recoverable = (typeof recoverable)[number];

interface RecoverOpts {
  since: number;
  until?: number;
  status?: Recoverable[];
  wait: boolean;
  interval: number;
}

/** --status FAILED,EXPIRED or --status FAILED --status EXPIRED. */
function collectStatus(raw: string, previous: Recoverable[] | undefined): Recoverable[] {
  const values = raw.split(',').map((s) => s.trim().toUpperCase());
  for (const v of values)
    if (!(recoverable as readonly string[]).includes(v))
      throw new InvalidArgumentError(`expected ${recoverable.join(', ')} (comma-separated or repeated)`);
  return [...(previous ?? []), ...(values as Recoverable[])];
}

export function registerRecover(program: Command): void {
  program
    .command('recover')
    .description("replay a target's events from a time window (default: its FAILED and EXPIRED ones)")
    .argument('<target>', 'target id (webhook or a2a)')
    .requiredOption('--since <time>', 'from this time, inclusive: ISO 8601 or Unix seconds', parseTime)
    .option('--until <time>', 'up to this time, exclusive (default: now)', parseTime)
    .option('--status <statuses>', 'FAILED, EXPIRED and/or DELIVERED (comma-separated)', collectStatus)
    .option('--no-wait', 'start the recovery and return at once (follow it with --json and GET)')
    .option('--interval <ms>', 'poll the recovery every ms milliseconds', intOption(100), 500)
    .addHelpText(
      'after',
      `
Waits until the recovery finishes (a progress bar on a terminal), then prints its counts; exits 1
if the recovery failed. One recovery per target runs at a time.

Examples:
  $ evds recover 3f2a... --since 2025-06-01T00:00:00Z
  $ evds recover 3f2a... --since 1748736000 --until 1748822400 --status FAILED,DELIVERED --json
  $ evds recover 3f2a... --since 2025-06-01 --no-wait`,
    )
    .action(
      action<RecoverOpts>(async (ctx, [target], opts) => {
        const started = await ctx.client().targets.recover(target!, {
          since: opts.since,
          until: opts.until,
          statuses: opts.status,
        });
        const recovery = opts.wait ? await waitFor(ctx, started, opts.interval) : started;
        ctx.out.result(recovery, () => describe(recovery));
        if (recovery.state === 'failed') process.exitCode = EXIT_FAILURE;
      }),
    );
}

async function waitFor(ctx: Ctx, started: Recovery, intervalMs: number): Promise<Recovery> {
  const stopper = createStopper();
  const bar = createLive(ctx.out, 'recovering [{bar}] {value}/{total} replayed', {}, started.matched);
  let recovery = started;
  try {
    while (recovery.state === 'running') {
      bar.update({ value: recovery.replayed, total: recovery.matched });
      await pause(intervalMs, stopper.signal);
      if (stopper.signal.aborted)
        throw new CliError(
          'interrupted',
          `stopped waiting; recovery ${recovery.id} goes on in the background`,
          EXIT_FAILURE,
        );
      recovery = await ctx.client().recoveries.get(recovery.id);
    }
  } finally {
    bar.stop();
    stopper.dispose();
  }
  return recovery;
}

function describe(r: Recovery): string {
  return fields({
    recovery: r.id,
    target: r.target_id,
    state: r.state,
    window: `${isoSeconds(r.since)} .. ${isoSeconds(r.until)}`,
    statuses: r.statuses.join(', '),
    matched: r.matched,
    replayed: r.replayed,
    skipped: r.skipped,
    failure_reason: r.failure_reason,
  });
}
