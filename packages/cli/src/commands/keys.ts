// evds keys: the workspace's API keys (at most five); a new key is printed once.
import type { Command } from 'commander';
import { action } from '../context.ts';
import { isoSeconds, table } from '../output.ts';

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description("list, create and delete the workspace's API keys")
    .addHelpText(
      'after',
      `
Examples:
  $ evds keys create consumer-2
  $ evds keys list
  $ evds keys delete 7d0e...`,
    );

  keys
    .command('list')
    .description('keys by name and prefix (never the full key)')
    .action(
      action(async (ctx) => {
        const answer = await ctx.client().keys.list();
        const rows = answer.keys.map((k) => ({
          ...k,
          created_at: isoSeconds(k.created_at),
          last_used_at: isoSeconds(k.last_used_at),
        }));
        ctx.out.result(answer, () => table(rows, ['id', 'name', 'prefix', 'created_at', 'last_used_at']));
      }),
    );

  keys
    .command('create')
    .description('create a key; the full key is printed once')
    .argument('<name>', 'a name to know it by')
    .action(
      action(async (ctx, [name]) => {
        const key = await ctx.client().keys.create(name!);
        ctx.out.result(
          key,
          () => `created key ${key.id} (${key.name}): ${key.key}\n(shown once: store it now)`,
        );
      }),
    );

  keys
    .command('delete')
    .description('delete a key (not the last one, nor the one in EVDS_API_KEY)')
    .argument('<id>', 'key id')
    .action(
      action(async (ctx, [id]) => {
        const answer = await ctx.client().keys.delete(id!);
        ctx.out.result(answer, () => `deleted key ${id}`);
      }),
    );
}
