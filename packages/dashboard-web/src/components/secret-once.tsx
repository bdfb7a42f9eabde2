// A signing secret (or key) shown the one time the API returns it, with a copy button.
import { CopyButton } from './copy-button.tsx';

export function SecretOnce({
  title,
  secret,
  children,
}: {
  title: string;
  secret: string;
  children?: React.ReactNode;
}) {
  return (
    <section className="notice success secret-once" aria-label={title}>
      <h3>{title}</h3>
      <p>Copy it now: it is shown only once and cannot be read again.</p>
      <div className="secret-row">
        <code className="secret" data-testid="secret">
          {secret}
        </code>
        <CopyButton text={secret} />
      </div>
      {children}
    </section>
  );
}
