import { startDnsServer } from '../testkit/src/dns-server.ts';
import { createDnsResolver } from './src/dns-resolver.ts';
const s = await startDnsServer({ table: { 'good.test': ['127.0.0.1'] }, blackHole: ['d1.test','d2.test','d3.test'] });
for (const warm of [false, true]) {
  const r = createDnsResolver({ servers: [s.address], timeoutMs: 250, tries: 2 });
  if (warm) await r('good.test');
  for (const n of ['d1.test','d2.test']) {
    const t = Date.now(); s.queries.length = 0;
    try { await r(n) } catch (e) { console.log(warm, n, (e as any).code, Date.now() - t, 'ms', s.queries.map(q => `${q.type}@${q.at - t}`).join(' ')) }
  }
}
await s.close();
