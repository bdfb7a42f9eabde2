// evds events: list with filters, read one with its attempts, and follow new ones (tail.ts).
import { InvalidArgumentError, type Command } from 'commander';
import type { Event, EventSummary } from '@evds/client';
import { action, intOption } from '../context.ts';
import { fields, table } from '../output.ts';
import { registerTail } from './tail.ts';

export const eventStatuses = ['QUEUED', 'DELIVERED', 'FAILED', 'RETRYING', 'EXPIRED', 'REPLAYED'] as const;
export type EventStatus = (typeof eventStatuses)[number];

export function parseEventStatus(raw: string): EventStatus {
  const upper = raw.toUpperCase();
  if ((eventStatuses as readonly string[]).includes(upper)) return upper as EventStatus;
  throw new InvalidArgumentError(`expected one of ${eventStatuses.join(', ')}`);
}

interface ListOpts {
  status?: EventStatus;
  target?: string;
  type?: string;
  correlationId?: string;
  limit?: number;
  after?: string;
}

const summaryRow = (e: EventSummary) => ({
  id: e.id,
  created_at: e.created_at,
  status: e.status,
  type: e.event_type,
  target: e.endpoint_id,
  test: e.test ? 'test' : '',
});

export function registerEvents(program: Command): void {
  const events = program
    .command('events')
    .description('list, read and follow events')
    .addHelpText(
      'after',
      `
Examples:
  $ evds events list --status FAILED --target 3f2a... --limit 20
  $ evds events get 9c1b...
  $ evds events tail --target 3f2a...`,
    );

  events
    .command('list')
    .description('events, newest first (one page; --after <next_cursor> for the next)')
    .option('--status <status>', eventStatuses.join(', '), parseEventStatus)
    .option('--target <id>', 'only this target')
    .option('--type <event-type>', 'only this event type')
    .option('--correlation-id <id>', 'only this correlation id')
    .option('--limit <n>', 'page size, 1 to 100 (default 50)', intOption(1))
    .option('--after <cursor>', 'the next_cursor of the previous page')
    .action(
      action<ListOpts>(async (ctx, _args, opts) => {
        const page = await ctx.client().events.list({
          status: opts.status,
          endpoint_id: opts.target,
          event_type: opts.type,
          correlation_id: opts.correlationId,
          limit: opts.limit === undefined ? undefined : String(opts.limit),
          after: opts.after,
        });
        ctx.out.result(page, () => {
          const rows = table(page.events.map(summaryRow), [
            'id',
            'created_at',
            'status',
            'type',
            'target',
            'test',
          ]);
          const more = page.next_cursor ? `\nmore: --after ${page.next_cursor}` : '';
          return `${rows}\n${page.events.length} of ${page.total}${more}`;
        });
      }),
    );

  events
    .command('get')
    .description('one event with its payload and every delivery attempt')
    .argument('<id>', 'event id')
    .action(
      action(async (ctx, [id]) => {
        const event = await ctx.client().events.get(id!);
        ctx.out.result(event, () => describeEvent(event));
      }),
    );

  registerTail(events);
}

function describeEvent(e: Event): string {
  const head = fields({
    id: e.id,
    status: e.status,
    type: e.event_type,
    target: `${e.target_id} (${e.kind})`,
    created_at: e.created_at,
    correlation_id: e.correlation_id,
    source_event_id: e.source_event_id,
    final_reason: e.final_reason,
    test: e.test,
  });
  const attempts = table(
    e.delivery_attempts.map((a) => ({
      attempt: a.attempt_number,
      at: a.attempted_at,
      status: a.status_code,
      ms: a.duration_ms,
    })),
    ['attempt', 'at', 'status', 'ms'],
  );
  return `${head}\n\npayload\n${JSON.stringify(e.payload, null, 2)}\n\nattempts\n${attempts}`;
}
