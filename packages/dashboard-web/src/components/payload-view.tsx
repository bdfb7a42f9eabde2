// A payload two ways: pretty-printed, and as the exact bytes accepted (which the API splices into its
// answer), each with a copy button. Events and mailbox messages show their payloads with it.
import { CopyButton } from './copy-button.tsx';

export function PayloadView({
  pretty,
  raw,
  exactLabel = 'Exact bytes',
  Heading = 'h3',
}: {
  pretty: string;
  /** The exact bytes, or null when the answer could not be read for them. */
  raw: string | null;
  /** E.g. "Exact bytes (177 B)". */
  exactLabel?: string;
  /** The heading level under the section that holds the view. */
  Heading?: 'h3' | 'h4';
}) {
  return (
    <div className="grid two payloads">
      <div>
        <div className="section-head">
          <Heading>Pretty-printed</Heading>
          <CopyButton text={pretty} label="Copy JSON" />
        </div>
        <pre className="code" tabIndex={0} aria-label="Payload, pretty-printed">
          {pretty}
        </pre>
      </div>
      <div>
        <div className="section-head">
          <Heading>{exactLabel}</Heading>
          {raw !== null && <CopyButton text={raw} label="Copy bytes" />}
        </div>
        <pre className="code" tabIndex={0} aria-label="Payload, exact bytes">
          {raw ?? 'not available'}
        </pre>
      </div>
    </div>
  );
}
