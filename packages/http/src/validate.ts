import { AppError, isId } from '@evds/domain';
import { z } from 'zod';

/**
 * Parses input with a schema; a failure is a 400 whose message names the first offending field. A string
 * holding U+0000 is refused too: Postgres text cannot store it, so it would otherwise end as a 500.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) {
    const nul = nulPath(r.data);
    if (nul)
      throw new AppError('validation_failed', `${nul.join('.') || where}: must not contain NUL characters`);
    return r.data;
  }
  const issue = r.error.issues[0];
  const path = issue?.path.length ? issue.path.join('.') : where;
  throw new AppError('validation_failed', `${path}: ${issue?.message ?? 'invalid'}`);
}

/** Where the first string containing U+0000 is, if any. Only the levels a schema can describe are walked. */
function nulPath(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null || path.length >= 8) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = nulPath(v, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/** A path parameter holding a resource id (32 hex); any other shape answers 404 through mountRoutes. */
export const idParam = () => z.string().refine(isId);

/** The `:id` path parameter of most routes. */
export const idParams = z.object({ id: idParam() });

/** A query parameter holding a whole number in [min, max]. */
export const queryWholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** The same with a default. */
export const queryInt = (def: number, min: number, max: number) => queryWholeNumber(min, max).default(def);
