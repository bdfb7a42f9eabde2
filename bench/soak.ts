// The soak: the fault suite's reconciliation over a long run (SOAK_MINUTES, default 10) of mixed load
// (webhook and mailbox targets, a share of requests sent twice with the same Idempotency-Key) at
// SOAK_RATE requests per second (default 100), with a fault in the middle of every minute, cycling
// through the five (worker SIGKILL, ingest replica SIGKILL, Redis restarted empty, Postgres stopped,
// receiver failing half its requests). Services run as separate processes over a private Postgres and
// Redis of the soak's own. Prints the reconciliation and each service's RSS at start and end; exits 1
// when an accepted item was lost or another check failed. Not part of the test command.
import {
  FAULTS,
  otherAnswers,
  rssMiB,
  runWithFaults,
  startFaultStack,
  type FaultStack,
  type LoadTarget,
  type ScheduledFault,
} from '@evds/testkit';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 100);
const log = (m: string) => process.stderr.write(`soak: ${m}\n`);

if (!(MINUTES > 0) || !(RATE > 0)) throw new Error('SOAK_MINUTES and SOAK_RATE must be positive numbers');

const stack: FaultStack = await startFaultStack({ log });
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await stack.stop().catch((err: unknown) => log(`clean-up failed: ${String(err)}`));
  process.exit(code);
};
process.on('SIGINT', () => void stop(130));
process.on('SIGTERM', () => void stop(143));

try {
  const targets: LoadTarget[] = [];
  for (const name of ['soak-a', 'soak-b', 'soak-c'])
    targets.push({ id: await stack.createTarget('webhook', name), kind: 'webhook' });
  for (const name of ['soak-m1', 'soak-m2'])
    targets.push({ id: await stack.createTarget('mailbox', name), kind: 'mailbox' });

  // RSS of every process by pid: the ones there at the start, and the successors faults started.
  const rssAt = () =>
    new Map(stack.services().map((p) => [p.child.pid ?? 0, { name: p.name, rss: rssMiB(p.child.pid) }]));
  const atStart = rssAt();
  const sampler = setInterval(() => {
    const now = [...rssAt().values()].map((p) => `${p.name} ${p.rss ?? '?'}`).join(', ');
    log(`rss (MiB): ${now}`);
  }, 60_000);
  sampler.unref();

  const faults: ScheduledFault[] = Array.from({ length: Math.floor(MINUTES) }, (_, i) => ({
    atMs: (i + 0.5) * 60_000,
    name: FAULTS[i % FAULTS.length] ?? 'worker-kill',
  }));
  log(`${MINUTES} min at ${RATE}/s over ${targets.length} targets; ${faults.length} faults`);
  const started = Date.now();
  const r = await runWithFaults(stack, {
    targets,
    ratePerSecond: RATE,
    durationMs: MINUTES * 60_000,
    idempotentShare: 0.1,
    faults,
    faultOptions: {
      redisDownMs: 1_500,
      postgresDownMs: 4_000,
      receiverFailMs: 10_000,
      receiverFailRate: 0.5,
    },
    settleMs: 180_000,
    log,
  });
  clearInterval(sampler);
  const atEnd = rssAt();
  const rssRows = [...new Set([...atStart.keys(), ...atEnd.keys()])].map((pid) => {
    const name = (atStart.get(pid) ?? atEnd.get(pid))?.name ?? '?';
    const start = atStart.has(pid) ? String(atStart.get(pid)?.rss ?? '?') : '-';
    const end = atEnd.has(pid) ? String(atEnd.get(pid)?.rss ?? '?') : '- (SIGKILLed by a fault)';
    const note = atStart.has(pid) ? '' : ' (started by a fault)';
    return `  ${`${name} pid ${pid}`.padEnd(28)} ${start.padStart(5)}   ${end}${note}`;
  });

  const t = r.total;
  const out = [
    `soak: ${MINUTES} min, ${RATE} requests/s, ${faults.length} faults, ${Math.round((Date.now() - started) / 1000)} s in all`,
    ...r.lines,
    `items sent ${t.sent} requests (${t.sent - t.items} of them not new: refused, unanswered or idempotent repeats), ` +
      `202s ${t.accepted} for ${t.items} items (${t.replayed} idempotent replays), delivered ${t.delivered}, ` +
      `duplicates ${t.duplicates}, lost ${t.lost}`,
    `answers other than 202/503: ${otherAnswers(r.outcomes)}`,
    'rss (MiB)',
    `  ${'process'.padEnd(28)} ${'start'.padStart(5)}   end`,
    ...rssRows,
  ];
  process.stdout.write(`${out.join('\n')}\n`);

  const failures = [
    t.lost > 0 && `${t.lost} accepted items lost`,
    r.pending !== 0 && `${r.pending} events still pending`,
    r.store.undelivered.length > 0 && `${r.store.undelivered.length} committed events not delivered`,
    t.leaked > 0 && `${t.leaked} refused requests left an item or usage`,
    (t.usageErrors > 0 || r.store.usageErrors > 0 || r.store.orphanUsage > 0) &&
      'usage records do not match items',
    t.idempotencyErrors > 0 && `${t.idempotencyErrors} Idempotency-Key groups named different items`,
    t.status500 > 0 && `${t.status500} answers 5xx other than 503`,
    r.outage.violations.length > 0 &&
      `${r.outage.violations.length} answers other than 503 while Postgres was down`,
    r.redisOutage.refused.length > 0 && `${r.redisOutage.refused.length} refused while Redis was down`,
    stack.unexpectedExits.length > 0 && `services exited:\n${stack.unexpectedExits.join('\n')}`,
  ].filter((x): x is string => typeof x === 'string');
  if (failures.length) process.stdout.write(`FAILED:\n  ${failures.join('\n  ')}\n`);
  if (process.env.SOAK_LOGS) {
    // Every service's output, and the requests that were not accepted, for a post-mortem.
    await stack.writeLogs(process.env.SOAK_LOGS);
    const { writeFile } = await import('node:fs/promises');
    const refused = r.outcomes.filter((o) => o.status !== 202);
    await writeFile(
      `${process.env.SOAK_LOGS}/not-accepted.json`,
      JSON.stringify({ windows: r.windows, refused }),
    );
  }
  await stop(failures.length ? 1 : 0);
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await stop(1);
}
