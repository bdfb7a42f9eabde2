// Proves that README's configuration table lists every variable packages/config reads (and no variable
// it does not), so an operator never has to read the schema to find a setting, and that the per-service
// metrics ports it states are the ones the services use.
import { expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  loadApiConfig,
  loadDashboardConfig,
  loadIngestConfig,
  loadWorkerConfig,
  metricsPortDefaults,
} from '@evds/config';

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const section = readme.slice(
  readme.indexOf('## Configuration'),
  readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
);
const rows = section.split('\n').filter((l) => /^\| `[A-Z]/.test(l));
const documented = rows.flatMap((r) =>
  [...(r.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
);

it('lists every variable of every service, once, and nothing else', () => {
  const read = new Set([
    ...Object.keys(loadApiConfig({})),
    ...Object.keys(loadIngestConfig({})),
    ...Object.keys(loadWorkerConfig({}, 'delivery-worker')),
    ...Object.keys(loadWorkerConfig({}, 'a2a-worker')),
    ...Object.keys(loadDashboardConfig({})),
  ]);
  expect(documented.filter((v) => !read.has(v))).toEqual([]);
  expect([...read].filter((v) => !documented.includes(v))).toEqual([]);
  expect(new Set(documented).size).toBe(documented.length);
});

it('states each service default metrics port', () => {
  const row = rows.find((r) => r.startsWith('| `METRICS_PORT`')) ?? '';
  for (const [service, port] of Object.entries(metricsPortDefaults))
    expect(row).toContain(`${service} ${port}`);
});
