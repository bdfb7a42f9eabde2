// Runs the evds command line as a real child process (`node packages/cli/src/bin.ts ...`) against a
// stack from @evds/testkit: one-shot commands to completion, long-running ones (tail, consume, listen)
// with their output read line by line as it comes.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Stack, TestWorkspace } from '@evds/testkit';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = 'packages/cli/src/bin.ts';

export type CliEnv = Record<string, string>;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a user of the stack would set: the API's URL, the ingest URL and the key. */
export function cliEnv(stack: Stack, ws: Pick<TestWorkspace, 'apiKey'>): CliEnv {
  return {
    EVDS_URL: stack.processes.get('api')!.url,
    EVDS_INGEST_URL: stack.processes.get('ingest')?.url ?? 'http://127.0.0.1:1',
    EVDS_API_KEY: ws.apiKey,
  };
}

function spawnCli(args: readonly string[], env: CliEnv): ChildProcess {
  // No inherited EVDS_* variables: each test says exactly what the command sees.
  return spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs one command to its end (killed after timeoutMs), with `stdin` written and closed. */
export function runCli(
  args: readonly string[],
  env: CliEnv,
  opts: { stdin?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const child = spawnCli(args, env);
  child.stdin!.end(opts.stdin ?? '');
  const cli = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
  return cli.exited.then((code) => {
    clearTimeout(timer);
    return { code, stdout: cli.stdout(), stderr: cli.stderr() };
  });
}

/** Runs a command and parses its stdout as one JSON document; fails the test on a non-zero exit. */
export async function runJson<T = Record<string, unknown>>(
  args: readonly string[],
  env: CliEnv,
  opts: { stdin?: string } = {},
): Promise<T> {
  const r = await runCli([...args, '--json'], env, opts);
  if (r.code !== 0) throw new Error(`evds ${args.join(' ')} exited ${r.code}:\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Parsed stdout lines (for --json streaming commands). */
  records<T = Record<string, unknown>>(): T[];
  /** Resolves once stdout or stderr (as asked) holds a line matching `pattern`. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  /** Sends a signal (SIGINT by default) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a long-running command; call stop() (or wait for `exited`) before the test ends. */
export function startCli(args: readonly string[], env: CliEnv): RunningCli {
  const child = spawnCli(args, env);
  child.stdin!.end();
  const cli = collect(child);
  return {
    child,
    stdout: cli.stdout,
    stderr: cli.stderr,
    records: <T>() =>
      cli
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as T),
    waitFor: (pattern, stream = 'stdout', timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const read = stream === 'stdout' ? cli.stdout : cli.stderr;
        const check = () => {
          const line = read()
            .split('\n')
            .find((l) => pattern.test(l));
          if (line === undefined) return false;
          clearInterval(poll);
          clearTimeout(timer);
          resolve(line);
          return true;
        };
        const fail = (why: string) => {
          clearInterval(poll);
          clearTimeout(timer);
          reject(new Error(`no ${stream} line matched ${pattern} ${why}:\n${cli.stdout()}\n${cli.stderr()}`));
        };
        const poll = setInterval(check, 25);
        const timer = setTimeout(() => fail(`in ${timeoutMs} ms`), timeoutMs);
        // Output read after the exit is complete: no match then will never come.
        void cli.exited.then((code) => check() || fail(`before the command exited (${code})`));
        check();
      }),
    exited: cli.exited,
    stop: (signal = 'SIGINT') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return cli.exited;
    },
  };
}

function collect(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { stdout: () => stdout, stderr: () => stderr, exited };
}

export { pollUntil as eventually } from '../e2e/helpers.ts';
