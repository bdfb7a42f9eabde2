import { chmod, chown, mkdir, readFile, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Backing, Log } from './backing.ts';
import { borrowed, once } from './backing.ts';
import { pickPort } from './ports.ts';
import { probePostgres, processAlive } from './probes.ts';
import type { Account, AsUser } from './run-as.ts';
import { PG_USER, asSelf, unprivilegedAccount } from './run-as.ts';
import { run, runOrThrow, shellQuote, which } from './shell.ts';
import { databaseUrlOf } from './urls.ts';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

const DEBIAN_ROOT = '/usr/lib/postgresql';

export async function findPostgresBinaries(): Promise<PostgresBinaries | undefined> {
  const initdb = await which('initdb');
  const pgCtl = await which('pg_ctl');
  // pg_ctl looks for `postgres` next to its real path, so symlinks (/usr/local/bin) are resolved.
  if (initdb && pgCtl) return { initdb: await realpath(initdb), pgCtl: await realpath(pgCtl) };
  const versions = await readdir(DEBIAN_ROOT).catch(() => [] as string[]);
  const newestFirst = versions.filter((v) => /^\d+(\.\d+)?$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const version of newestFirst) {
    const bin = join(DEBIAN_ROOT, version, 'bin');
    const found = { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl') };
    if ((await stat(found.initdb).catch(() => null)) && (await stat(found.pgCtl).catch(() => null)))
      return found;
  }
  return undefined;
}

interface Paths {
  dataDir: string;
  pgData: string;
  socketDir: string;
  logFile: string;
}

function pathsOf(dataDir: string): Paths {
  const root = resolve(dataDir);
  // Sockets get their own directory rather than <dataDir> itself: under root the server runs as
  // evds-pg, which must be able to write there without owning the caller's whole data dir.
  return {
    dataDir: root,
    pgData: join(root, 'pg'),
    socketDir: join(root, 'pg-run'),
    logFile: join(root, 'pg.log'),
  };
}

const urlFor = (port: number) => `postgres://postgres@127.0.0.1:${port}`;

// postmaster.pid line 1 is the pid, line 4 the port; a live pid that answers on that port is ours.
async function runningInstance(pgData: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await readFile(join(pgData, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !processAlive(pid)) return undefined;
  const probe = await probePostgres(databaseUrlOf(urlFor(port), 'postgres'));
  return probe.ok ? { pid, port } : undefined;
}

async function prepareForAccount(paths: Paths, account: Account, log: Log): Promise<void> {
  // evds-pg only needs to pass through the data dir (search bit), not to list or write it.
  const mode = (await stat(paths.dataDir)).mode & 0o7777;
  if ((mode & 0o001) === 0) {
    await chmod(paths.dataDir, mode | 0o001);
    log(`postgres: made ${paths.dataDir} searchable by other users so ${PG_USER} can reach its files`);
  }
  const pgDataOwner = (await stat(paths.pgData)).uid;
  if (pgDataOwner !== account.uid) {
    await runOrThrow('chown', ['-R', `${account.uid}:${account.gid}`, paths.pgData]);
  }
  await chown(paths.socketDir, account.uid, account.gid);
  await writeFile(paths.logFile, '', { flag: 'a' });
  await chown(paths.logFile, account.uid, account.gid);
  const [cmd, args] = account.wrap('test', ['-w', paths.socketDir]);
  if ((await run(cmd, args)).code !== 0) {
    throw new Error(
      `${PG_USER} cannot write ${paths.socketDir}: a parent directory is not searchable by other users; ` +
        'use a data dir under a world-searchable path (e.g. /var/tmp)',
    );
  }
}

async function logTail(logFile: string): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-5).join(' | ');
}

export interface PrivatePostgresOptions {
  dataDir: string;
  preferredPort: number;
  binaries: PostgresBinaries;
  log: Log;
}

export async function startPrivatePostgres(opts: PrivatePostgresOptions): Promise<Backing> {
  const { binaries, log } = opts;
  const paths = pathsOf(opts.dataDir);
  const running = await runningInstance(paths.pgData);
  if (running) {
    // Started by an earlier call (a CLI run, another test run, an earlier call in this process):
    // it keeps running after our stop(), because whoever started it may still be using it.
    log(
      `postgres: reusing private instance on 127.0.0.1:${running.port} (pid ${running.pid}, data ${paths.pgData}); ` +
        'stop() leaves it running',
    );
    return borrowed(urlFor(running.port));
  }

  await mkdir(paths.pgData, { recursive: true, mode: 0o700 });
  await mkdir(paths.socketDir, { recursive: true });
  const account = await unprivilegedAccount(log);
  if (account) await prepareForAccount(paths, account, log);
  const wrap: AsUser = account?.wrap ?? asSelf;
  const exec = (cmd: string, args: string[]) => runOrThrow(...wrap(cmd, args), { cwd: paths.dataDir });

  const initialized = await stat(join(paths.pgData, 'PG_VERSION')).catch(() => null);
  if (!initialized) {
    log(`postgres: initdb into ${paths.pgData}${account ? ` as ${PG_USER}` : ''}`);
    // UTF8 + C locale: the same collation on every machine, whatever LANG says (or lacks).
    await exec(binaries.initdb, [
      '-D',
      paths.pgData,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
    ]);
  }

  const port = await pickPort(opts.preferredPort);
  const serverOptions = [
    `-p ${port}`,
    `-k ${shellQuote(paths.socketDir)}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=on',
  ].join(' ');
  const pgCtl = (args: string[]) => exec(binaries.pgCtl, ['-D', paths.pgData, ...args]);
  try {
    await pgCtl(['-l', paths.logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
  } catch (err) {
    throw new Error(`${(err as Error).message}; ${paths.logFile}: ${await logTail(paths.logFile)}`, {
      cause: err,
    });
  }
  const url = urlFor(port);
  const probe = await probePostgres(databaseUrlOf(url, 'postgres'));
  if (!probe.ok) throw new Error(`private postgres started but does not answer on ${port}: ${probe.reason}`);
  log(`postgres: started private instance on 127.0.0.1:${port} (data ${paths.pgData}, log ${paths.logFile})`);

  return {
    url,
    stop: once(async () => {
      await pgCtl(['-m', 'fast', '-w', '-t', '60', 'stop']);
      log(`postgres: stopped private instance on 127.0.0.1:${port}`);
    }),
  };
}
