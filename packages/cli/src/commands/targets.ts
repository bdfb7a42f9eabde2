// evds targets: list, read, create, change and delete targets, rotate a webhook's signing secret and
// send a test event.
import { InvalidArgumentError, type Command } from 'commander';
import type { Target } from '@evds/client';
import { action, type Ctx } from '../context.ts';
import { CliError } from '../errors.ts';
import { fields, isoSeconds, table } from '../output.ts';

const kinds = ['webhook', 'mailbox', 'a2a'] as const;
type Kind = (typeof kinds)[number];

interface CreateOpts {
  kind: Kind;
  name: string;
  url?: string;
  description?: string;
  agentCardUrl?: string;
  token?: string;
}

const row = (t: Target) => ({
  id: t.id,
  kind: t.kind,
  name: t.name,
  enabled: t.enabled,
  health: t.health.status,
  url: 'url' in t ? t.url : null,
});

const details = (t: Target & { secret?: string }) =>
  fields({
    ...row(t),
    description: t.description || null,
    disabled_reason: t.disabled_reason,
    created_at: isoSeconds(t.created_at),
    ...(t.secret ? { secret: `${t.secret}  (shown once: keep it to verify deliveries)` } : {}),
  });

function parseBool(raw: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new InvalidArgumentError('expected true or false');
}

function parseKind(raw: string): Kind {
  if ((kinds as readonly string[]).includes(raw)) return raw as Kind;
  throw new InvalidArgumentError(`expected one of ${kinds.join(', ')}`);
}

function createBody(opts: CreateOpts) {
  const common = { name: opts.name, ...(opts.description ? { description: opts.description } : {}) };
  switch (opts.kind) {
    case 'webhook':
      if (!opts.url) throw new CliError('missing_option', 'a webhook target needs --url <https URL>');
      return { kind: 'webhook' as const, url: opts.url, ...common };
    case 'mailbox':
      return { kind: 'mailbox' as const, ...common };
    case 'a2a':
      if (!opts.agentCardUrl)
        throw new CliError('missing_option', 'an a2a target needs --agent-card-url <https URL>');
      return {
        kind: 'a2a' as const,
        agent_card_url: opts.agentCardUrl,
        auth: opts.token ? { type: 'bearer' as const, token: opts.token } : { type: 'none' as const },
        ...common,
      };
  }
}

export function registerTargets(program: Command): void {
  const targets = program
    .command('targets')
    .description('list, create, change and delete targets (webhook, mailbox, a2a)')
    .addHelpText(
      'after',
      `
Examples:
  $ evds targets create --kind webhook --name orders --url https://example.com/hooks/orders
  $ evds targets create --kind mailbox --name jobs
  $ evds targets update 3f2a... --enabled false
  $ evds targets list --json | jq '.targets[].id'`,
    );

  targets
    .command('list')
    .description("the workspace's targets with their delivery health")
    .action(
      action(async (ctx) => {
        const answer = await ctx.client().targets.list();
        ctx.out.result(answer, () =>
          table(answer.targets.map(row), ['id', 'kind', 'name', 'enabled', 'health', 'url']),
        );
      }),
    );

  targets
    .command('get')
    .description('one target')
    .argument('<id>', 'target id')
    .action(action(async (ctx, [id]) => show(ctx, await ctx.client().targets.get(id!))));

  targets
    .command('create')
    .description('create a target; a webhook target prints its signing secret, once')
    .requiredOption('--kind <kind>', `webhook, mailbox or a2a`, parseKind)
    .requiredOption('--name <name>', 'a name to know it by')
    .option('--url <url>', 'webhook: the HTTPS URL deliveries go to')
    .option('--description <text>', 'free text')
    .option('--agent-card-url <url>', "a2a: the agent's Agent Card URL")
    .option('--token <token>', 'a2a: a bearer token the agent expects (stored encrypted)')
    .action(
      action<CreateOpts>(async (ctx, _args, opts) => {
        show(ctx, await ctx.client().targets.create(createBody(opts)));
      }),
    );

  targets
    .command('update')
    .description("change a target's name, description or enabled state")
    .argument('<id>', 'target id')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--enabled <bool>', 'true or false (enabling clears an automatic disable)', parseBool)
    .action(
      action<{ name?: string; description?: string; enabled?: boolean }>(async (ctx, [id], opts) => {
        const { name, description, enabled } = opts;
        if (name === undefined && description === undefined && enabled === undefined)
          throw new CliError('missing_option', 'nothing to change: give --name, --description or --enabled');
        show(ctx, await ctx.client().targets.update(id!, { name, description, enabled }));
      }),
    );

  targets
    .command('delete')
    .description('delete a target (its events and messages stay readable)')
    .argument('<id>', 'target id')
    .action(
      action(async (ctx, [id]) => {
        const answer = await ctx.client().targets.delete(id!);
        ctx.out.result(answer, () => `deleted target ${id}`);
      }),
    );

  targets
    .command('rotate-secret')
    .description('start a signing-secret rotation: prints the new secret once; the old one stays valid')
    .argument('<id>', 'webhook target id')
    .action(
      action(async (ctx, [id]) => {
        const answer = await ctx.client().targets.rotateSecret(id!);
        ctx.out.result(answer, () => `new signing secret (shown once): ${answer.secret}`);
      }),
    );

  targets
    .command('test')
    .description('send a sample event through the real pipeline (marked test, no usage)')
    .argument('<id>', 'target id')
    .option('--type <event-type>', 'event type of the sample')
    .action(
      action<{ type?: string }>(async (ctx, [id], opts) => {
        const answer = await ctx.client().targets.test(id!, opts.type ? { event_type: opts.type } : {});
        ctx.out.result(answer, () => `test event ${answer.id} (${answer.event_type}) ${answer.status}`);
      }),
    );
}

function show(ctx: Ctx, answer: { target: Target & { secret?: string } }): void {
  ctx.out.result(answer, () => details(answer.target));
}
