import type { Log } from './backing.ts';
import { isRoot, run, runOrThrow, shellQuote, which } from './shell.ts';

// initdb and postgres refuse to run as root; on a root-only machine they run as this system user.
export const PG_USER = 'evds-pg';

export type Command = [cmd: string, args: string[]];
export type AsUser = (cmd: string, args: string[]) => Command;

export interface Account {
  uid: number;
  gid: number;
  wrap: AsUser;
}

export async function unprivilegedAccount(log: Log): Promise<Account | undefined> {
  if (!isRoot()) return undefined;
  if ((await run('id', ['-u', PG_USER])).code !== 0) {
    await runOrThrow('useradd', [
      '--system',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      PG_USER,
    ]);
    log(`postgres: created system user ${PG_USER} (initdb and postgres refuse to run as root)`);
  }
  const uid = Number((await runOrThrow('id', ['-u', PG_USER])).trim());
  const gid = Number((await runOrThrow('id', ['-g', PG_USER])).trim());
  const runuser = await which('runuser');
  const wrap: AsUser = runuser
    ? (cmd, args) => [runuser, ['-u', PG_USER, '--', cmd, ...args]]
    : // su needs an explicit shell: the system user's login shell is nologin.
      (cmd, args) => ['su', ['-s', '/bin/sh', PG_USER, '-c', [cmd, ...args].map(shellQuote).join(' ')]];
  return { uid, gid, wrap };
}

export const asSelf: AsUser = (cmd, args) => [cmd, args];
