// evds send: one item to a target, the payload read from a file or stdin and sent byte for byte.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { action } from '../context.ts';
import { CliError } from '../errors.ts';

interface SendOpts {
  type?: string;
  correlationId?: string;
  idempotencyKey?: string;
}

export function registerSend(program: Command): void {
  program
    .command('send')
    .description('send one JSON item to a target (POST /t/<target>)')
    .argument('<target>', 'target id')
    .argument('[file]', 'JSON payload file; "-" or nothing reads stdin')
    .option('--type <event-type>', 'event type (X-Event-Type); the body\'s "event_type" otherwise')
    .option('--correlation-id <id>', 'your tracking id (X-Correlation-ID)')
    .option(
      '--idempotency-key <key>',
      'sending again with the same key makes no second item (default: a fresh key per send)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ evds send 3f2a... order.json --type order.created
  $ echo '{"order": 42}' | evds send 3f2a... --correlation-id checkout-42
  $ evds send 3f2a... - --idempotency-key order-42 --json < order.json`,
    )
    .action(
      action<SendOpts>(async (ctx, [target, file], opts) => {
        const payload = await readPayload(file);
        const accepted = await ctx.client().send(target!, payload, {
          type: opts.type,
          correlationId: opts.correlationId,
          idempotencyKey: opts.idempotencyKey,
        });
        ctx.out.result(
          accepted,
          () => `accepted ${accepted.id} (${accepted.status}, ${accepted.kind} target)`,
        );
      }),
    );
}

/** The payload text from a file or stdin, checked to be JSON here so a typo fails before any request. */
export async function readPayload(file: string | undefined): Promise<string> {
  let text: string;
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY)
      throw new CliError('missing_payload', 'no payload: give a JSON file or pipe the JSON on stdin');
    text = await readStdin();
  } else {
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new CliError('unreadable_file', `cannot read ${file}: ${(err as Error).message}`);
    }
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw new CliError('invalid_json', `the payload is not JSON: ${(err as Error).message}`);
  }
  return text;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
