import { listSealedSecrets, replaceSealedSecret, sealedTargetColumns, type Db } from '@evds/db';
import type { SecretBox } from '@evds/secrets';

export interface ResealReport {
  /** Sealed values looked at. */
  scanned: number;
  /** Sealed under an older key and now under the current one (dry run: would be). */
  resealed: number;
  /** Changed by someone else between the read and the write; a second run takes them. */
  skipped: number;
  /** Sealed under a key id that ENCRYPTION_KEYS no longer lists, or corrupt: cannot be re-sealed. */
  unreadable: number;
  currentKeyId: string;
}

/**
 * Key rotation, step 3 (infra/README.md): re-encrypts every sealed target column (signing secrets,
 * previous signing secrets, inbound secrets, a2a bearer tokens; deleted targets too) that is not yet
 * under the current key, i.e. the first of ENCRYPTION_KEYS. Safe while the services run: each value
 * is replaced only if unchanged since it was read, and a value sealed under any listed key still opens
 * everywhere. Running it twice changes nothing the second time.
 */
export async function resealSecrets(
  db: Db,
  box: SecretBox,
  opts: { batchSize?: number; dryRun?: boolean } = {},
): Promise<ResealReport> {
  const report: ResealReport = {
    scanned: 0,
    resealed: 0,
    skipped: 0,
    unreadable: 0,
    currentKeyId: box.currentKeyId,
  };
  let after: string | null = null;
  for (;;) {
    const rows = await listSealedSecrets(db, after, opts.batchSize ?? 200);
    if (rows.length === 0) return report;
    after = rows[rows.length - 1]?.id ?? null;
    for (const row of rows) {
      for (const column of sealedTargetColumns) {
        const envelope = row[column];
        if (envelope === null) continue;
        report.scanned++;
        let plain: string;
        try {
          if (!box.needsReseal(envelope)) continue;
          plain = box.open(envelope);
        } catch {
          report.unreadable++;
          continue;
        }
        if (opts.dryRun) report.resealed++;
        else if (await replaceSealedSecret(db, row.id, column, envelope, box.seal(plain))) report.resealed++;
        else report.skipped++;
      }
    }
  }
}
