import { z } from 'zod';

/** Reads an environment variable list such as "a,b , c" into trimmed, non-empty strings. */
export const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((s) => s === 'true' || s === '1' || s === 'yes');

export const int = z.coerce.number().int().nonnegative();
/** For limits, windows, lifetimes and caps, where 0 would not mean "off" but break what reads it. */
export const positive = z.coerce.number().int().positive();

export type Env = Record<string, string | undefined>;

/** Parses env against a schema and throws one readable error listing every bad variable. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Env): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
