// Fetching an Agent Card: one GET through the guarded agent, https only, no redirects (a 3xx is a
// refusal), a time-out and a size cap; the policy is checked on the URL first so a refused address
// is never connected to. A stored ETag may be sent back; a 304 then means "what you have is current".
import type { Agent } from 'node:https';
import { isNetguardRefusal, type UrlCheck } from '@evds/netguard';
import got from 'got';

export const CARD_MAX_BYTES = 256 * 1024;
export const CARD_TIMEOUT_MS = 10_000;
const USER_AGENT = 'evds-a2a/1.0';

export type CardFetch =
  | { ok: true; notModified: false; body: Buffer; etag: string | null }
  | { ok: true; notModified: true }
  /** `refused`: the network policy refused the address (a 422 like any refused URL). */
  | { ok: false; refused: boolean; reason: string };

export interface CardFetchOptions {
  agent: Agent;
  checkUrl: (url: string) => Promise<UrlCheck>;
  timeoutMs?: number;
  maxBytes?: number;
}

export async function fetchCard(
  url: string,
  opts: CardFetchOptions,
  etag?: string | null,
): Promise<CardFetch> {
  const verdict = await opts.checkUrl(url);
  if (!verdict.ok)
    return { ok: false, refused: true, reason: `refused by the network policy: ${verdict.reason}` };
  const maxBytes = opts.maxBytes ?? CARD_MAX_BYTES;
  const unreachable = (why: string): CardFetch => ({
    ok: false,
    refused: false,
    reason: `the Agent Card could not be fetched: ${why}`,
  });

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let done = false;
    const finish = (r: CardFetch) => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(r);
    };
    const stream = got.stream(url, {
      headers: {
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...(etag ? { 'if-none-match': etag } : {}),
      },
      agent: { https: opts.agent },
      timeout: { request: opts.timeoutMs ?? CARD_TIMEOUT_MS },
      followRedirect: false,
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: true,
    });
    stream.on(
      'response',
      (res: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
        status = res.statusCode;
        if (status === 304 && etag) return finish({ ok: true, notModified: true });
        if (status >= 300 && status < 400) {
          const to = typeof res.headers.location === 'string' ? ` to ${res.headers.location}` : '';
          return finish(
            unreachable(`the URL answered with a redirect (HTTP ${status}${to}); redirects are not followed`),
          );
        }
        if (status < 200 || status > 299) return finish(unreachable(`the URL answered HTTP ${status}`));
        const length = Number(res.headers['content-length']);
        if (Number.isFinite(length) && length > maxBytes) return finish(tooLarge(maxBytes));
      },
    );
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish(tooLarge(maxBytes));
      chunks.push(chunk);
    });
    stream.on('end', () => {
      const etagHeader = stream.response?.headers.etag;
      finish({
        ok: true,
        notModified: false,
        body: Buffer.concat(chunks),
        etag: typeof etagHeader === 'string' ? etagHeader : null,
      });
    });
    stream.on('error', (err: unknown) => {
      if (isNetguardRefusal(err))
        return finish({
          ok: false,
          refused: true,
          reason: `refused by the network policy: ${(err as Error).message}`,
        });
      finish(unreachable(describe(err)));
    });
  });
}

const tooLarge = (maxBytes: number): CardFetch => ({
  ok: false,
  refused: false,
  reason: `the Agent Card is larger than ${Math.round(maxBytes / 1024)} KiB`,
});

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  const message = cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}
