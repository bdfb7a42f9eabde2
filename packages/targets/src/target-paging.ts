// Optional keyset paging of the target lists (GET /api/v1/targets and GET /api/v1/endpoints). Without
// a paging parameter the answer keeps the contract's shape: every live target, which TARGETS_PER_ORG
// bounds. With `limit` or `after` it is one page, oldest first, and carries `next_cursor`.
import { listTargetPage, listTargets, type Db, type PublicTarget, type TargetFilter } from '@evds/db';
import { AppError, isId } from '@evds/domain';
import { queryWholeNumber } from '@evds/http';
import { z } from 'zod';

/** Page size when only `after` is given. */
const DEFAULT_PAGE = 100;

export const targetListQuery = z.strictObject({
  limit: queryWholeNumber(1, 100)
    .optional()
    .describe(
      `1-100: answer one page with \`next_cursor\`; without limit and after, every target is listed (no next_cursor); with after alone, pages of ${DEFAULT_PAGE}`,
    ),
  after: z
    .string()
    .refine(isId, 'must be a target id (32 lowercase hex)')
    .optional()
    .describe('Cursor: the `next_cursor` of the previous page'),
});

export const nextCursorSchema = z
  .string()
  .nullable()
  .optional()
  .describe(
    'Only when paging (limit or after given): pass as `after` for the next page; null on the last page',
  );

/** The targets a list answer shows, and the cursor when it was asked for a page (else undefined). */
export async function listTargetsForQuery(
  db: Db,
  orgId: string,
  query: z.output<typeof targetListQuery>,
  filter: TargetFilter = {},
): Promise<{ targets: PublicTarget[]; nextCursor?: string | null }> {
  if (query.limit === undefined && query.after === undefined)
    return { targets: await listTargets(db, orgId, filter) };
  const page = await listTargetPage(
    db,
    orgId,
    { limit: query.limit ?? DEFAULT_PAGE, after: query.after },
    filter,
  );
  if (page.outcome === 'bad_cursor')
    throw new AppError('validation_failed', 'after: not a target of this organization');
  return { targets: page.targets, nextCursor: page.nextCursor };
}
