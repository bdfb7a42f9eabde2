// Shared set-up of the client suites: the real stack (api, ingest, delivery-worker) with a real HTTPS
// receiver, a provisioned organization with a user, and clients made with createEvdsClient over it.
import { connect, createServer, type Socket } from 'node:net';
import { createEvdsClient, type ClientOptions, type EvdsClient } from '@evds/client';
import {
  seedWorkspace,
  startStackWithReceiver,
  type Receiver,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import type { Env } from '@evds/config';

export interface ClientKit {
  stack: Stack;
  receiver: Receiver;
  ws: TestWorkspace;
  /** A client with the workspace's API key on the API and ingest services. */
  client: EvdsClient;
  /** Another client over the same services, with other options (a session, another key, a proxy). */
  clientWith(options: Partial<ClientOptions>): EvdsClient;
  stop(): Promise<void>;
}

export async function startClientKit(env: Env = {}): Promise<ClientKit> {
  const { stack, receiver } = await startStackWithReceiver({ env });
  const ws = await seedWorkspace(stack.db);
  const clientWith = (options: Partial<ClientOptions>) =>
    createEvdsClient({
      baseUrl: stack.processes.get('api')!.url,
      ingestUrl: stack.processes.get('ingest')!.url,
      apiKey: ws.apiKey,
      ...options,
    });
  return {
    stack,
    receiver,
    ws,
    client: clientWith({}),
    clientWith,
    stop: async () => {
      await stack.stop();
      await receiver.close();
    },
  };
}

export interface DroppingProxy {
  url: string;
  /** Connections accepted so far (fetch keeps one per request in flight alive). */
  connections: number;
  /** Connections whose answer was dropped so far. */
  dropped: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `upstream` that forwards every request but, for the first `drops`
 * connections, destroys the client's socket once the upstream starts answering instead of relaying the
 * answer: the request was done, the caller never learns it. Later connections are relayed both ways.
 */
export async function startDroppingProxy(upstream: string, drops: number): Promise<DroppingProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const proxy: DroppingProxy = { url: '', connections: 0, dropped: 0, close: () => Promise.resolve() };
  const server = createServer((client) => {
    proxy.connections++;
    const drop = proxy.dropped < drops;
    if (drop) proxy.dropped++;
    const up = connect(Number(target.port), target.hostname);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(up);
    if (drop) up.once('data', () => (client.destroy(), up.destroy()));
    else up.pipe(client);
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
