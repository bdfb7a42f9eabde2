// What every command's action receives: its output (--json or text), the configuration, and a client
// made on first use, so commands that need no key (listen, --help) never ask for one.
import { InvalidArgumentError, type Command } from 'commander';
import { createEvdsClient, type EvdsClient } from '@evds/client';
import { loadCliConfig, requireApiKey, type CliConfig } from './config.ts';
import { createOutput, type Output } from './output.ts';

export interface Ctx {
  out: Output;
  config: CliConfig;
  client(): EvdsClient;
}

export function createCtx(json: boolean, env: NodeJS.ProcessEnv = process.env): Ctx {
  const config = loadCliConfig(env);
  let client: EvdsClient | undefined;
  return {
    out: createOutput(json),
    config,
    client: () =>
      (client ??= createEvdsClient({
        baseUrl: config.baseUrl,
        ingestUrl: config.ingestUrl,
        apiKey: requireApiKey(config),
        headers: { 'user-agent': 'evds-cli/1' },
      })),
  };
}

/**
 * Wraps a command's action: builds its Ctx from the global --json flag and turns any failure into the
 * printed error and exit code (process.exitCode, so streams flush before the process ends).
 */
export function action<O extends object>(
  run: (ctx: Ctx, args: string[], opts: O & { json?: boolean }, cmd: Command) => Promise<void>,
) {
  return async function (this: Command): Promise<void> {
    const opts = this.optsWithGlobals<O & { json?: boolean }>();
    const ctx = createCtx(Boolean(opts.json));
    try {
      await run(ctx, this.args, opts, this);
    } catch (err) {
      process.exitCode = ctx.out.error(err);
    }
  };
}

/** Parses a whole-number option (--limit, --max...); commander reports a bad one as a usage error. */
export function intOption(min = 0) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min)
      throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return Number(raw);
  };
}
