import { canInstallPackages, installPackages } from './apt.ts';
import type { Backing, Log } from './backing.ts';
import { dockerAnswers, errorMessage } from './probes.ts';

// The rungs both services share once env and default-port discovery came up empty:
// installed binaries, then binaries installed with apt-get, then a container.
export interface LocalRungs<B> {
  service: 'postgres' | 'redis';
  binariesName: string;
  aptPackage: string;
  findBinaries: () => Promise<B | undefined>;
  startPrivate: (binaries: B) => Promise<Backing>;
  startContainer: () => Promise<Backing>;
  log: Log;
}

export async function climbLocalRungs<B>(rungs: LocalRungs<B>): Promise<Backing> {
  const { service, log } = rungs;
  const failures: string[] = [];
  let binaries = await rungs.findBinaries();
  if (!binaries) {
    if (await canInstallPackages()) {
      log(`${service}: no ${rungs.binariesName} installed; installing Debian package ${rungs.aptPackage}`);
      try {
        await installPackages([rungs.aptPackage], log);
        binaries = await rungs.findBinaries();
        if (!binaries)
          failures.push(`${rungs.aptPackage} installed but ${rungs.binariesName} still not found`);
      } catch (err) {
        failures.push(`apt-get install ${rungs.aptPackage}: ${errorMessage(err)}`);
        log(`${service}: installing ${rungs.aptPackage} failed (${errorMessage(err)})`);
      }
    } else {
      failures.push(
        `no ${rungs.binariesName} installed and not root with apt-get, so nothing to install with`,
      );
    }
  }
  if (binaries) {
    try {
      return await rungs.startPrivate(binaries);
    } catch (err) {
      failures.push(`private instance: ${errorMessage(err)}`);
      log(`${service}: private instance failed (${errorMessage(err)})`);
    }
  }
  if (await dockerAnswers()) {
    log(`${service}: falling back to a testcontainers container (docker info answers)`);
    return rungs.startContainer();
  }
  failures.push('no Docker engine answers `docker info`');
  throw new Error(`${service}: no server available: ${failures.join('; ')}`);
}
