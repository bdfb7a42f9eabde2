// evds replay: sends one event again as a new event (same payload, no new usage).
import type { Command } from 'commander';
import { action } from '../context.ts';

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('send an event again as a new event (source_event_id points at the original)')
    .argument('<event>', 'event id')
    .addHelpText(
      'after',
      `
Examples:
  $ evds replay 9c1b...
  $ evds events list --status FAILED --json | jq -r '.events[].id' | xargs -n1 evds replay`,
    )
    .action(
      action(async (ctx, [event]) => {
        const replay = await ctx.client().events.replay(event!);
        ctx.out.result(replay, () => `replayed ${replay.source_event_id} as ${replay.id} (${replay.status})`);
      }),
    );
}
