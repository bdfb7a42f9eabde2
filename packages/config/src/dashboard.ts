// The dashboard's own settings: where the API is, its own origin (for the CSRF check), where the built
// web app is, and the local inbox of development. It reads no database and no Redis.
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { int, positive } from './env.ts';

/** The web app's build output in this checkout (and in the image, which builds it at the same path). */
export const defaultDashboardStaticDir = fileURLToPath(new URL('../../dashboard-web/dist', import.meta.url));

const httpUrl = (schemes: string[]) =>
  z
    .string()
    .refine((s) => URL.canParse(s) && schemes.includes(new URL(s).protocol), {
      message: `must be an absolute ${schemes.map((s) => s.replace(':', '')).join(' or ')} URL`,
    })
    .transform((s) => s.replace(/\/+$/, ''));

/** scheme://host[:port] and nothing more, as browsers write it in the Origin header. */
const origin = z
  .string()
  .refine(
    (s) => s === '' || (URL.canParse(s) && /^https?:$/.test(new URL(s).protocol) && new URL(s).origin === s),
    { message: 'must be an origin such as https://dashboard.example.com (no path, no trailing slash)' },
  );

const optional = (schema: z.ZodType<string>) => z.union([z.literal(''), schema]).default('');

export const dashboardSettings = z.object({
  PORT: int.default(3002),
  /** The API's base URL as the dashboard reaches it (inside the deployment, not through the gateway). */
  API_URL: httpUrl(['http:', 'https:']).default('http://127.0.0.1:3000'),
  /** How long a forwarded call may take before the page gets 503. */
  API_TIMEOUT_MS: positive.default(15_000),
  /** The dashboard's own public origin: state-changing requests from any other are refused. */
  DASHBOARD_PUBLIC_ORIGIN: origin.default(''),
  DASHBOARD_STATIC_DIR: z.string().min(1).default(defaultDashboardStaticDir),
  /** Largest body the page may send (the API's own default limit). */
  BODY_LIMIT_BYTES: positive.default(1024 * 1024),
  /** Development only: the local inbox's plain-HTTP control API, and the HTTPS URL targets deliver to. */
  LOCAL_INBOX_CONTROL_URL: optional(httpUrl(['http:'])),
  LOCAL_INBOX_URL: optional(httpUrl(['https:'])),
});

type Checked = z.output<typeof dashboardSettings> & { NODE_ENV: string };

/** Production needs its own origin and never talks to a local inbox; the inbox needs both its URLs. */
export function refuseUnsafeDashboard<C extends Checked>(cfg: C): C {
  const production = cfg.NODE_ENV === 'production';
  for (const name of ['LOCAL_INBOX_CONTROL_URL', 'LOCAL_INBOX_URL'] as const)
    if (production && cfg[name] !== '')
      throw new Error(`invalid configuration: ${name} is refused when NODE_ENV=production`);
  if (production && cfg.DASHBOARD_PUBLIC_ORIGIN === '')
    throw new Error('invalid configuration: DASHBOARD_PUBLIC_ORIGIN is required when NODE_ENV=production');
  if ((cfg.LOCAL_INBOX_CONTROL_URL === '') !== (cfg.LOCAL_INBOX_URL === ''))
    throw new Error('invalid configuration: LOCAL_INBOX_CONTROL_URL and LOCAL_INBOX_URL go together');
  return cfg;
}
