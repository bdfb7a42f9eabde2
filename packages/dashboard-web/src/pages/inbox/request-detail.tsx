// One received request in full: the signature check in words, every header, and the body both
// pretty-printed and as the exact bytes that were signed.
import { signatureCount } from './signature-badge.tsx';
import type { InboxRequest } from './types.ts';

function pretty(body: string): string | null {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return null;
  }
}

export function RequestDetail({ request: r }: { request: InboxRequest }) {
  const headers = Object.entries(r.headers).sort(([a], [b]) => a.localeCompare(b));
  const formatted = pretty(r.body);
  return (
    <div className="inbox-detail">
      <p className={`notice ${r.signature.verified ? 'success' : 'warning'}`}>
        <strong>Signature check: {r.signature.verified ? 'passed' : 'failed'}</strong> (
        {signatureCount(r.signature.signatures)}): {r.signature.detail}
      </p>
      <table className="table compact inbox-headers">
        <caption>Headers</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {headers.map(([name, value]) => (
            <tr key={name}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <code>{value}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="inbox-bodies">
        {formatted !== null && (
          <figure>
            <figcaption>Body (pretty JSON)</figcaption>
            <pre className="code" tabIndex={0} aria-label="Body, pretty JSON">
              {formatted}
            </pre>
          </figure>
        )}
        <figure>
          <figcaption>Body (exact bytes, {new TextEncoder().encode(r.body).length} B)</figcaption>
          <pre className="code" tabIndex={0} aria-label="Body, exact bytes">
            {r.body === '' ? '(empty)' : r.body}
          </pre>
        </figure>
      </div>
    </div>
  );
}
