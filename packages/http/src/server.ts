import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

export async function listen(app: Express, port: number, host: string): Promise<RunningServer> {
  const server = createServer(app);
  // Keep-alive longer than typical load balancers' idle time-out, so they close first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  let closing: Promise<void> | undefined;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      })),
  };
}

/** Status, reason phrase, code and message of the requests Node refuses before express sees them. */
const clientErrors: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers_too_large',
    'the request line and headers are too large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'the request took too long to arrive',
  ],
};
const malformed: [number, string, string, string] = [
  400,
  'Bad Request',
  'bad_request',
  'malformed HTTP request (request line or headers)',
];

/**
 * Node answers a request it cannot parse (control characters in a header, headers over 16 KiB, a bad
 * Content-Length...) itself, with an empty body. This gives those answers the `{error, code}` body every
 * other error has, and otherwise does what Node does: no answer once one has started, then close.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const [status, reason, code, message] = clientErrors[err.code ?? ''] ?? malformed;
    const body = JSON.stringify({ error: message, code });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(err);
}
