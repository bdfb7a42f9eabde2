// The dashboard's web app is served from its build output: build it when the output is missing or
// older than its sources, so a fresh clone and an edited page both show what the sources say.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type WebAppState = 'fresh' | 'built';

const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'];

/** Newest modification time (ms) of a file or of the files under a folder; 0 when absent. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), st.mtimeMs);
}

export function ensureWebAppBuilt(root: string): WebAppState {
  const pkg = join(root, 'packages/dashboard-web');
  const built = join(pkg, 'dist/index.html');
  const sources = Math.max(...SOURCES.map((s) => newest(join(pkg, s))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return 'fresh';
  console.error('start: building the dashboard web app (pnpm --filter @evds/dashboard-web build)');
  const r = spawnSync('pnpm', ['--filter', '@evds/dashboard-web', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0)
    throw new Error(`the dashboard web app did not build (exit ${r.status ?? r.error?.message}); see above`);
  return 'built';
}
