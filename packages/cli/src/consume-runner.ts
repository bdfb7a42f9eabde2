// Runs the user's command for one mailbox message: the payload as JSON on its stdin, the message's
// ids in its environment. Exit 0 resolves (the message is acked); anything else rejects, so the
// message is left to lapse and is offered again after its lease.
import { spawn, type ChildProcess } from 'node:child_process';
import type { MailboxMessage } from '@evds/client';

export class CommandFailed extends Error {
  /** True when the command could not be started at all (not found, not executable): every message would fail. */
  readonly cannotStart: boolean;

  constructor(message: string, cannotStart = false) {
    super(message);
    this.name = 'CommandFailed';
    this.cannotStart = cannotStart;
  }
}

export interface RunOptions {
  /** Aborts when the lease is lost: the command is stopped, its result would not count. */
  signal: AbortSignal;
  /** Where the command's stdout goes: ours, or stderr when ours carries --json lines. */
  stdoutFd: 1 | 2;
}

// Commands run in their own process group, so the Ctrl-C meant for `evds` does not kill them halfway:
// evds stops claiming and lets them finish. If evds exits anyway (a second Ctrl-C), they are stopped.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

export function runForMessage(
  argv: readonly string[],
  message: MailboxMessage,
  opts: RunOptions,
): Promise<void> {
  const [file, ...args] = argv;
  const env = {
    ...process.env,
    EVDS_MESSAGE_ID: message.id,
    EVDS_MAILBOX_ID: message.mailbox_id,
    EVDS_EVENT_TYPE: message.event_type ?? '',
    EVDS_CORRELATION_ID: message.correlation_id ?? '',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { env, stdio: ['pipe', opts.stdoutFd, 'inherit'], detached: true });
    running.add(child);
    const onAbort = () => child.kill('SIGTERM');
    opts.signal.addEventListener('abort', onAbort, { once: true });
    // A command that does not read its stdin closes the pipe early; that is not a failure.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(JSON.stringify(message.payload ?? null));
    child.once('error', (err) => {
      running.delete(child);
      opts.signal.removeEventListener('abort', onAbort);
      reject(new CommandFailed(`cannot run ${file}: ${err.message}`, true));
    });
    child.once('close', (code, signal) => {
      running.delete(child);
      opts.signal.removeEventListener('abort', onAbort);
      if (code === 0) resolve();
      else reject(new CommandFailed(signal ? `command killed by ${signal}` : `command exited ${code}`));
    });
  });
}
