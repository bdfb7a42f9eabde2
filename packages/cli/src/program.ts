// The evds command tree. Each group lives in its own file under commands/; this file only assembles
// them, with the global --json flag and the help text that explains configuration.
import { Command } from 'commander';
import { registerEvents } from './commands/events.ts';
import { registerKeys } from './commands/keys.ts';
import { registerListen } from './commands/listen.ts';
import { registerMailbox } from './commands/mailbox.ts';
import { registerRecover } from './commands/recover.ts';
import { registerReplay } from './commands/replay.ts';
import { registerSend } from './commands/send.ts';
import { registerTargets } from './commands/targets.ts';
import { DEFAULT_URL } from './config.ts';

const guide = `
Configuration (environment):
  EVDS_API_KEY     API key (evds_sk_...); every command but listen needs it
  EVDS_URL         the service's base URL (default ${DEFAULT_URL}, the gateway of ./scripts/start.sh)
  EVDS_INGEST_URL  where /t/ is served, when not on EVDS_URL
  EVDS_DEBUG       set to print stack traces of unexpected errors

Output: readable lines and tables; --json prints one JSON document (streaming commands: one object
per line) on stdout. Errors go to stderr as "error: <code>: <message> (HTTP <status>)", or as
{"error","code","status"} with --json.
Exit codes: 0 done, 1 the service refused or something failed, 2 the command line was wrong
(unknown command or option, missing EVDS_API_KEY, unreadable payload).

Examples:
  $ export EVDS_API_KEY=evds_sk_...
  $ evds targets create --kind webhook --name orders --url https://example.com/hooks
  $ echo '{"order": 42}' | evds send <target> --type order.created
  $ evds events tail --target <target>
  $ evds mailbox consume <mailbox> --max 10 -- ./handle.sh
  $ evds listen --port 9443 --secret whsec_...`;

export function createProgram(): Command {
  const program = new Command('evds')
    .description('Send events, manage targets and keys, follow deliveries and consume mailboxes.')
    .option('--json', 'machine-readable output (JSON)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .addHelpText('after', guide);
  registerSend(program);
  registerTargets(program);
  registerEvents(program);
  registerKeys(program);
  registerReplay(program);
  registerRecover(program);
  registerMailbox(program);
  registerListen(program);
  return program;
}
