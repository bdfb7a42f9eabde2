import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

// Never rejects: a missing binary (ENOENT) is just one more way for a rung of the ladder to fail.
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: opts.timeoutMs ?? 120_000,
    });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (err) => resolve({ code: null, stdout, stderr: stderr + err.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function runOrThrow(
  cmd: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<string> {
  const result = await run(cmd, args, opts);
  if (result.code !== 0) {
    const output = (result.stderr || result.stdout).trim().split('\n').slice(-5).join(' | ');
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.code ?? 'none'}): ${output}`);
  }
  return result.stdout;
}

// Debian keeps daemons and admin tools in sbin dirs that a non-login PATH may lack.
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export async function which(name: string): Promise<string | undefined> {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
