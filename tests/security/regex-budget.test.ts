// Proves that no regular expression or trim applied to text a caller controls backtracks (abuse paths):
// each one is reached through the exported function that applies it and fed a 1 MB string shaped to be
// its worst case (a long run the pattern must give back, then a character that makes it fail). A
// linear pattern takes milliseconds on it; a quadratic one, like the /\/+$/ and /\.+$/ trims of Agent
// Card URLs this suite was written for, takes minutes. The budget is 50 ms or 5 times a plain scan of
// the same string in the same run, whichever is larger (a busy machine slows both). Lengths the
// service bounds first (16 KiB headers, 2048-character URLs, 256 KiB bodies) are exceeded on purpose:
// each pattern must be linear on its own. The timings are printed as a table.
import { afterAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { slugify } from '@evds/accounts';
import { verifyBillingSignature } from '@evds/billing';
import { isDbUnavailable, type IngestTarget } from '@evds/db';
import { retryAfterMs } from '@evds/delivery';
import { isApiKeyShaped, isId, isSessionTokenShaped } from '@evds/domain';
import { bearerOf, isJsonType, queryInt, rawJson, requestIdOf, stringifyWithRaw } from '@evds/http';
import { checkShape, verifyInbound, type IngestRequest } from '@evds/ingest-core';
import { catalog, isRedisUnavailable } from '@evds/queue';
import { isFreshTimestamp } from '@evds/secrets';
import type { Request } from 'express';
import { chooseInterface, messageSendUrl } from '@evds/a2a';
import { createDnsResolver, createNetPolicy, hostNameProblem, hostTableResolve } from '@evds/netguard';
import { a2aAuthInput, targetListQuery } from '@evds/targets';

const MB = 1_000_000;
const BUDGET_MS = 50;
const SCAN_FACTOR = 5;

type Case = {
  /** Where the pattern is and what it is, as the table shows it. */
  what: string;
  input: string;
  run: (input: string) => unknown;
};

const iface = (url: string) => ({ url, binding: 'HTTP+JSON', version: '1.0' });
const v1Card = (entry: Record<string, string>) => ({
  supportedInterfaces: [
    { url: 'https://a.example/', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', ...entry },
  ],
});
// The policy for real; its names never reach DNS (this machine has none): each answers a public address.
const policy = createNetPolicy({ allowCidrs: [], resolve: () => Promise.resolve(['93.184.215.14']) });
// Nothing listens on the discard port: the resolver's query fails at once, after the trim under test.
const dns = createDnsResolver({ servers: ['127.0.0.1:9'], timeoutMs: 100, tries: 1, cacheMaxTtlSeconds: 0 });
const hostTable = hostTableResolve({ 'hook.example.com': ['93.184.215.14'] }, () => Promise.resolve([]));
const request = (headers: Record<string, string>) => ({ headers }) as unknown as Request & IncomingMessage;
const ingestTarget: IngestTarget = {
  id: '0'.repeat(32),
  org_id: '0'.repeat(32),
  kind: 'webhook',
  enabled: true,
  event_types: [],
  max_payload_bytes: 262_144,
  verify_inbound_signatures: false,
  inbound_secret: null,
  billing_status: 'active',
};
const ingestRequest = (fields: Partial<IngestRequest>): IngestRequest => ({
  route: 't',
  orgId: ingestTarget.org_id,
  targetId: ingestTarget.id,
  rawBody: Buffer.from('{}'),
  body: {},
  eventTypeHeader: undefined,
  correlationId: undefined,
  idempotencyKey: undefined,
  signature: undefined,
  timestamp: undefined,
  requestId: null,
  ...fields,
});
const now = Math.floor(Date.now() / 1000);

const cases: Case[] = [
  // Agent Card URLs and host names (the quadratic ones before this suite)
  {
    what: 'a2a card.ts messageSendUrl: trailing "/" run, then "x"',
    input: `https://a.example/${'/'.repeat(MB)}x`,
    run: (s) => messageSendUrl(iface(s)),
  },
  {
    what: 'a2a card.ts messageSendUrl: trailing "/" run at the end',
    input: `https://a.example${'/'.repeat(MB)}`,
    run: (s) => messageSendUrl(iface(s)),
  },
  {
    what: 'a2a card.ts chooseInterface: interface URL host of dots',
    input: `https://a${'.'.repeat(MB)}x/`,
    run: (s) => chooseInterface(v1Card({ url: s }), policy.checkUrl),
  },
  {
    what: 'a2a card.ts:11 VERSION_1 via chooseInterface',
    input: `1.${'1'.repeat(MB)}x`,
    run: (s) => chooseInterface(v1Card({ protocolVersion: s }), policy.checkUrl),
  },
  {
    what: 'netguard host-name.ts hostNameProblem: dots, then "x"',
    input: `a${'.'.repeat(MB)}x`,
    run: (s) => hostNameProblem(s),
  },
  {
    what: 'netguard policy.ts checkUrl: host of dots',
    input: `https://a${'.'.repeat(MB)}x/`,
    run: (s) => policy.checkUrl(s),
  },
  {
    what: 'netguard policy.ts hostTableResolve: dots, then "x"',
    input: `${'.'.repeat(MB)}x`,
    run: (s) => hostTable(s),
  },
  {
    what: 'netguard dns-resolver.ts resolve: dots, then "x"',
    input: `a${'.'.repeat(MB)}x`,
    run: (s) => dns(s).catch(() => null),
  },
  // Request headers (Node stops them at 16 KiB; the patterns must not rely on it)
  {
    what: 'http auth.ts:38 /^Bearer +(\\S+) *$/i: token, spaces, "!"',
    input: `Bearer ${'a'.repeat(MB / 2)}${' '.repeat(MB / 2)}!`,
    run: (s) => bearerOf(request({ authorization: s })),
  },
  {
    what: 'http auth.ts:38 /^Bearer +(\\S+) *$/i: spaces, then a tab',
    input: `Bearer${' '.repeat(MB)}\t`,
    run: (s) => bearerOf(request({ authorization: s })),
  },
  {
    what: 'http body.ts:29 isJsonType: "+json" run, then "!"',
    input: `application/${'+json'.repeat(MB / 5)}!`,
    run: (s) => isJsonType(s),
  },
  {
    what: 'http request-log.ts:16 requestIdOf',
    input: `${'a'.repeat(MB)}!`,
    run: (s) => requestIdOf(request({ 'x-request-id': s })),
  },
  {
    what: 'ingest inbound-signature.ts:18 timestamp',
    input: '1'.repeat(MB),
    run: (s) => verifyInbound('secret', Buffer.from('{}'), s, 'v1=00', now),
  },
  {
    what: 'ingest inbound-signature.ts:22 split(/[ ,]+/)',
    input: `${' ,'.repeat(MB / 2)}v1=00`,
    run: (s) => verifyInbound('secret', Buffer.from('{}'), String(now), s, now),
  },
  {
    what: 'ingest accept.ts:66 CORRELATION_ID via checkShape',
    input: `${'a'.repeat(MB)}!`,
    run: (s) => checkShape(ingestRequest({ correlationId: s }), ingestTarget),
  },
  {
    what: 'domain isEventType via ingest checkShape',
    input: `${'a'.repeat(MB)}\n`,
    run: (s) => checkShape(ingestRequest({ eventTypeHeader: s }), ingestTarget),
  },
  {
    what: 'billing signature.ts:25-26 (header capped at 2000 first)',
    input: `t=${'1'.repeat(MB)},v1=${'a'.repeat(MB)}`,
    run: (s) => verifyBillingSignature('secret', s, Buffer.from('{}')),
  },
  // Bodies, query strings, answers of receivers
  {
    what: 'http raw-json.ts:23 SLOT_PATTERN via stringifyWithRaw',
    input: '"__evds_raw_'.repeat(MB / 12),
    run: (s) => stringifyWithRaw({ s, raw: rawJson('{}') }),
  },
  {
    what: 'http validate.ts:42 queryInt',
    input: `${'1'.repeat(MB)}x`,
    run: (s) => queryInt(1, 1, 10).safeParse(s),
  },
  {
    what: 'targets target-paging.ts:14 limit',
    input: `${'1'.repeat(MB)}x`,
    run: (s) => targetListQuery.safeParse({ limit: s }),
  },
  {
    what: 'delivery retry-after.ts:8 delay-seconds',
    input: '9'.repeat(MB),
    run: (s) => retryAfterMs(s, Date.now()),
  },
  {
    what: 'delivery retry-after.ts:11,13 HTTP date shape',
    input: `Mon, ${'0'.repeat(MB)} GMT`,
    run: (s) => retryAfterMs(s, Date.now()),
  },
  {
    what: 'domain ids.ts:4 isId',
    input: `${'0'.repeat(MB)}x`,
    run: (s) => isId(s),
  },
  {
    what: 'domain ids.ts:17 isApiKeyShaped',
    input: `evds_sk_${'0'.repeat(MB)}`,
    run: (s) => isApiKeyShaped(s),
  },
  {
    what: 'domain ids.ts:25 isSessionTokenShaped',
    input: `${'0'.repeat(MB)}x`,
    run: (s) => isSessionTokenShaped(s),
  },
  {
    what: 'secrets timestamped-hmac.ts:15 isFreshTimestamp',
    input: '1'.repeat(MB),
    run: (s) => isFreshTimestamp(s, now),
  },
  {
    what: 'accounts provision.ts:62-63 slugify: "-" run inside',
    input: `a${'-'.repeat(MB)}b`,
    run: (s) => slugify(s),
  },
  {
    what: 'accounts provision.ts:62-63 slugify: " -" pairs',
    input: `${' -'.repeat(MB / 2)}a`,
    run: (s) => slugify(s),
  },
  {
    what: 'targets a2a-routes.ts:23 bearer token shape',
    input: `${'a'.repeat(MB)} `,
    run: (s) => a2aAuthInput.safeParse({ type: 'bearer', token: s }),
  },
  {
    what: 'queue catalog.ts:11 job id shape',
    input: `${'0'.repeat(MB)}x`,
    run: (s) => catalog.webhook.schema.safeParse({ eventId: s }),
  },
  // Error messages (ours, but a driver may quote what it was sent)
  {
    what: 'db database.ts:83 isDbUnavailable',
    input: 'Connection terminate'.repeat(MB / 20),
    run: (s) => isDbUnavailable(new Error(s)),
  },
  {
    what: 'queue redis.ts:36 isRedisUnavailable',
    input: 'Connection is close'.repeat(MB / 19),
    run: (s) => isRedisUnavailable(new Error(s)),
  },
];

/** The linear yardstick: one pass over the string's characters. */
function scan(s: string): number {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += s.charCodeAt(i);
  return sum;
}

/** How long `run` takes; a refusal thrown is as good an answer as any (most inputs here are refused). */
async function timed(run: () => unknown): Promise<number> {
  const started = performance.now();
  try {
    await run();
  } catch {
    // the time is what is measured
  }
  return performance.now() - started;
}

const rows: string[] = [];

afterAll(() => {
  const header = `${'pattern (file:line, reached through)'.padEnd(64)} ${'chars'.padStart(9)} ${'ms'.padStart(8)} ${'scan ms'.padStart(8)} ${'budget'.padStart(7)}`;
  console.log(['regex budget, 1 MB adversarial inputs', header, ...rows].join('\n'));
});

describe('every pattern applied to caller-controlled text is linear', () => {
  it.each(cases.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    // Warm both up on a short string, so the timed runs measure matching, not compiling.
    scan(c.input.slice(0, 1000));
    await timed(() => c.run(c.input.slice(0, 1000)));
    const scanMs = await timed(() => scan(c.input));
    const ms = await timed(() => c.run(c.input));
    const budget = Math.max(BUDGET_MS, SCAN_FACTOR * scanMs);
    rows.push(
      `${c.what.padEnd(64)} ${String(c.input.length).padStart(9)} ${ms.toFixed(1).padStart(8)} ${scanMs.toFixed(1).padStart(8)} ${budget.toFixed(0).padStart(7)}`,
    );
    expect(ms).toBeLessThan(budget);
  });
});
