import { listSealedSecrets, replaceSealedSecret, sealedTargetColumns, type Db } from '@evds/db';
import { isBoundEnvelope, type SecretBox } from '@evds/secrets';

export interface ResealReport {
  /** Sealed values looked at. */
  scanned: number;
  /** Re-sealed bound to their row under the current key (dry run: would be). */
  resealed: number;
  /**
   * Of the scanned, those not in the bound format (the old format, bound to no row, opens anywhere):
   * each also counts as resealed, skipped or unreadable. Zero after a complete run.
   */
  unbound: number;
  /** Changed by someone else between the read and the write; a second run takes them. */
  skipped: number;
  /**
   * Cannot be re-sealed: sealed under a key id that ENCRYPTION_KEYS no longer lists, corrupt, or a bound
   * envelope that was sealed for another target or column (copied here).
   */
  unreadable: number;
  currentKeyId: string;
}

/**
 * Key rotation, step 3 (infra/README.md), and the move to bound envelopes: re-encrypts every sealed
 * target column (signing secrets, previous signing secrets, inbound secrets, a2a bearer tokens; deleted
 * targets too) that is not yet under the current key (the first of ENCRYPTION_KEYS) or still in the old
 * unbound format, bound to the row and column it is found in. An old-format value is trusted where it
 * is found (it carries nothing to check that against); a bound value opens only where it was sealed, so
 * one copied from elsewhere is counted unreadable and left alone (and the command exits 1). Safe while
 * the services run: each value is replaced only if unchanged since it was read, and a value sealed
 * under any listed key still opens where it is bound. Running it twice changes nothing the second time.
 */
export async function resealSecrets(
  db: Db,
  box: SecretBox,
  opts: { batchSize?: number; dryRun?: boolean } = {},
): Promise<ResealReport> {
  const report: ResealReport = {
    scanned: 0,
    resealed: 0,
    unbound: 0,
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
        if (!isBoundEnvelope(envelope)) report.unbound++;
        const at = { id: row.id, column };
        let plain: string;
        try {
          // Every value is opened, not only those to re-seal: the run doubles as a check that each
          // sealed value opens where it is stored.
          plain = box.open(envelope, at);
          if (!box.needsReseal(envelope)) continue;
        } catch {
          report.unreadable++;
          continue;
        }
        if (opts.dryRun) report.resealed++;
        else if (await replaceSealedSecret(db, row.id, column, envelope, box.seal(plain, at)))
          report.resealed++;
        else report.skipped++;
      }
    }
  }
}
