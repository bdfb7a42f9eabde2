import type { Log } from './backing.ts';
import { isRoot, runOrThrow, which } from './shell.ts';

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
let updated: Promise<string> | undefined;

export async function canInstallPackages(): Promise<boolean> {
  return isRoot() && (await which('apt-get')) !== undefined;
}

// Both ladders may install; the package index is refreshed once per process, and the installs
// run one after the other because dpkg holds a lock.
export async function installPackages(packages: string[], log: Log): Promise<void> {
  log(`apt: installing ${packages.join(' ')} (this takes a minute)`);
  updated ??= runOrThrow('apt-get', ['update'], { env: APT_ENV, timeoutMs: 600_000 });
  await updated;
  await runOrThrow('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
    env: APT_ENV,
    timeoutMs: 900_000,
  });
  log(`apt: installed ${packages.join(' ')}`);
}
