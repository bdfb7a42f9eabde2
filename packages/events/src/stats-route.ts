import { LATENCY_RESOLUTION, attemptStats, eventStatusCounts, mailboxStateCounts } from '@evds/db';
import { eventStatuses } from '@evds/domain';
import { type RouteDef, defineRoute } from '@evds/http';
import { z } from 'zod';
import { visibleFrom, type EventReadDeps } from './visibility.ts';

const windows = { '1h': 3600, '24h': 86400, '7d': 7 * 86400, '30d': 30 * 86400 } as const;

/** GET /api/v1/stats: an organization's deliveries and mailboxes over a window. */
export function statsRoutes(deps: EventReadDeps): RouteDef[] {
  const db = deps.readDb ?? deps.db;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/stats',
      auth: 'KS',
      tag: 'stats',
      summary: 'Delivery and mailbox statistics over a window (default 24h)',
      query: z.strictObject({ window: z.enum(['1h', '24h', '7d', '30d']).default('24h') }),
      responses: {
        200: {
          description: 'statistics',
          schema: z.object({
            window: z.string(),
            since: z
              .number()
              .int()
              .describe(
                'Unix seconds: the window start, moved back to a quarter hour (the counters are kept per 15 minutes)',
              ),
            events: z.object({ total: z.number().int(), by_status: z.record(z.string(), z.number().int()) }),
            attempts: z.object({
              total: z.number().int(),
              succeeded: z.number().int(),
              failed: z.number().int(),
            }),
            success_rate: z.number().nullable().describe('succeeded / total attempts, null without attempts'),
            latency_ms: z
              .object({
                p50: z.number().nullable(),
                p95: z.number().nullable(),
                p99: z.number().nullable(),
              })
              .describe(
                "Attempt durations' percentiles, read from the counters' latency histogram: within " +
                  `${Math.round(LATENCY_RESOLUTION * 100)}% of the exact value`,
              ),
            mailboxes: z
              .object({
                UNREAD: z.number().int(),
                CLAIMED: z.number().int(),
                ACKNOWLEDGED: z.number().int(),
                EXPIRED: z.number().int(),
              })
              .describe('Mailbox messages created in the window, by their state now (as computed when read)'),
          }),
        },
      },
      handler: async ({ auth, query }) => {
        const now = new Date();
        const asked = new Date(now.getTime() - windows[query.window] * 1000);
        // Both counters start on a quarter hour; neither counts events past record retention.
        const from = new Date(Math.max(asked.getTime(), visibleFrom(deps).getTime()));
        const [events, s] = await Promise.all([
          eventStatusCounts(db, auth.orgId, from, now),
          attemptStats(db, auth.orgId, from),
        ]);
        const mailboxes = await mailboxStateCounts(db, auth.orgId, events.since);
        const byStatus = Object.fromEntries(eventStatuses.map((st) => [st, events.byStatus[st]]));
        return {
          body: {
            window: query.window,
            since: Math.floor(events.since.getTime() / 1000),
            events: { total: Object.values(byStatus).reduce((a, b) => a + b, 0), by_status: byStatus },
            attempts: s.attempts,
            success_rate: s.attempts.total === 0 ? null : s.attempts.succeeded / s.attempts.total,
            latency_ms: s.latencyMs,
            mailboxes,
          },
        };
      },
    }),
  ];
}
