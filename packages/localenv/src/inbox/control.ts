// The inbox's control API, plain HTTP on 127.0.0.1 for the dashboard back end and the start script:
// GET /requests, DELETE /requests, POST /secrets {label, secret}. Errors are {error, code} JSON.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answer, type RequestLog } from './receiver.ts';
import { secretProblem, type SecretRegistry } from './secrets.ts';

export const CONTROL_BODY_LIMIT_BYTES = 16 * 1024;
const MAX_LABEL = 200;

export interface ControlOptions {
  log: RequestLog;
  secrets: SecretRegistry;
}

class ControlError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const routes: Record<string, string[]> = { '/requests': ['GET', 'DELETE'], '/secrets': ['POST'] };

export function createControl(opts: ControlOptions): Server {
  return createServer((req, res) => {
    handle(req, res, opts).catch((err: unknown) => {
      const e = err instanceof ControlError ? err : new ControlError(500, 'internal', 'internal error');
      answer(res, e.status, { error: e.message, code: e.code }, e.status === 413);
      if (e.status === 413) req.destroy();
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, opts: ControlOptions): Promise<void> {
  // Only this machine's own names: a web page that rebinds a name of its own to 127.0.0.1 is refused.
  if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/.test(req.headers.host ?? ''))
    throw new ControlError(403, 'forbidden', 'the control API answers only to Host 127.0.0.1 or localhost');
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const method = req.method ?? 'GET';
  const allowed = routes[path];
  if (!allowed) throw new ControlError(404, 'not_found', `no route ${method} ${path}`);
  if (!allowed.includes(method)) {
    res.setHeader('allow', allowed.join(', '));
    throw new ControlError(405, 'method_not_allowed', `${path} accepts ${allowed.join(', ')}`);
  }
  if (method === 'GET') return answer(res, 200, { requests: opts.log.list() });
  if (method === 'DELETE') {
    opts.log.clear();
    return noContent(res);
  }
  const { label, secret } = parseSecretBody(await readJson(req));
  opts.secrets.add(label, secret);
  noContent(res);
}

function noContent(res: ServerResponse): void {
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}

function parseSecretBody(body: unknown): { label: string; secret: string } {
  const bad = (message: string) => new ControlError(400, 'validation_failed', message);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('body: must be a JSON object {label, secret}');
  const { label, secret, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw bad(`${unknown}: unknown field`);
  if (typeof label !== 'string') throw bad('label: must be a string');
  if (label.length === 0 || label.length > MAX_LABEL)
    throw bad(`label: must be 1 to ${MAX_LABEL} characters`);
  if (typeof secret !== 'string') throw bad('secret: must be a string');
  const problem = secretProblem(secret);
  if (problem) throw bad(problem);
  return { label, secret };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new ControlError(415, 'unsupported_media_type', 'request body must be application/json');
  const tooLarge = () =>
    new ControlError(
      413,
      'payload_too_large',
      `request body is larger than ${CONTROL_BODY_LIMIT_BYTES} bytes`,
    );
  if (Number(req.headers['content-length'] ?? 0) > CONTROL_BODY_LIMIT_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > CONTROL_BODY_LIMIT_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ControlError(400, 'invalid_json', 'request body is not valid JSON');
  }
}
