// Another origin's pages for the CSRF tests of session.test.ts: a plain http server on 127.0.0.1 whose
// pages post to the dashboard by themselves (auto-submitting forms) or with fetch in no-cors mode, as
// a hostile site would while the user is signed in. Reached as http://localhost:<port> it is another
// site; as http://127.0.0.1:<port> it is the dashboard's own site on another origin.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Attacker {
  close(): Promise<void>;
  port: number;
}

/** Another origin's pages: forms that post themselves and fetches, all aimed at the dashboard. */
export async function startAttacker(dashboard: string): Promise<Attacker> {
  const form = (action: string, enctype: string, name: string, value: string) =>
    `<!doctype html><html><body><form method="POST" action="${dashboard}${action}" enctype="${enctype}">` +
    `<input name='${name}' value='${value}'></form><script>document.forms[0].submit()</script></body></html>`;
  const fetches =
    `<!doctype html><html><body><script>` +
    `const go = (path, body, init) => fetch('${dashboard}' + path, { method: 'POST', credentials: 'include', body, ...init });` +
    `Promise.allSettled([` +
    `go('/api/v1/keys', '{"name":"csrf-fetch"}', { mode: 'no-cors', headers: { 'content-type': 'text/plain' } }),` +
    `go('/app/logout', '{}', { mode: 'no-cors' }),` +
    `go('/app/logout-all', '{}', { mode: 'no-cors' }),` +
    `go('/api/v1/keys', '{"name":"csrf-cors"}', { headers: { 'content-type': 'application/json', 'x-requested-with': 'x' } }),` +
    `]).then(() => { window.done = true; });` +
    `</script></body></html>`;
  const pages: Record<string, string> = {
    // text/plain turns name=value into a JSON body: the classic form-borne JSON request.
    '/keys': form('/api/v1/keys', 'text/plain', '{"name":"csrf-form","x":"', '"}'),
    '/logout': form('/app/logout', 'application/x-www-form-urlencoded', 'a', 'b'),
    '/fetch': fetches,
  };
  const server: Server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html' }).end(page ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
