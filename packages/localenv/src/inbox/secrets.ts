// The signing secrets the inbox verifies with, by label (a target id). A label keeps a few of its
// latest secrets, so a rotated secret registered by the dashboard and the older one registered again
// by the start script both keep verifying; with a file, they also survive a restart of the inbox.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import type { KnownSecret } from './verify.ts';

const PER_LABEL = 4;
const MAX_LABELS = 1000;

export interface SecretRegistry {
  add(label: string, secret: string): void;
  /** Every known secret, the most recently registered first. */
  list(): KnownSecret[];
}

/** Why a secret cannot be used to verify, or null when it can. */
export function secretProblem(secret: string): string | null {
  if (!secret.startsWith('whsec_')) return 'secret: must start with "whsec_"';
  if (secret.length > 200) return 'secret: must be at most 200 characters';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret.slice(6))) return 'secret: must be whsec_ followed by base64';
  try {
    new Webhook(secret);
    return null;
  } catch {
    return 'secret: must be whsec_ followed by base64';
  }
}

export function createSecretRegistry(file?: string): SecretRegistry {
  // Newest label last (Map insertion order), newest secret first within a label.
  const byLabel = new Map<string, string[]>(file ? load(file) : []);
  const save = () => {
    if (!file) return;
    writeFileSync(file, JSON.stringify(Object.fromEntries(byLabel)), { mode: 0o600 });
    chmodSync(file, 0o600);
  };
  return {
    add(label, secret) {
      const kept = (byLabel.get(label) ?? []).filter((s) => s !== secret);
      byLabel.delete(label);
      byLabel.set(label, [secret, ...kept].slice(0, PER_LABEL));
      if (byLabel.size > MAX_LABELS) byLabel.delete(byLabel.keys().next().value!);
      save();
    },
    list() {
      return [...byLabel]
        .reverse()
        .flatMap(([label, secrets]) => secrets.map((secret) => ({ label, secret })));
    },
  };
}

// A damaged file is ignored rather than fatal: the start script registers its secret again anyway.
function load(file: string): [string, string[]][] {
  if (!existsSync(file)) return [];
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof data !== 'object' || data === null) return [];
    return Object.entries(data).flatMap(([label, secrets]): [string, string[]][] =>
      Array.isArray(secrets) && secrets.every((s) => typeof s === 'string' && secretProblem(s) === null)
        ? [[label, (secrets as string[]).slice(0, PER_LABEL)]]
        : [],
    );
  } catch {
    return [];
  }
}
