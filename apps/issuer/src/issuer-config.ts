// The issuer's environment, validated at boot: every bad variable named at once, values never echoed.
import { ConfigError, type Environment } from '@talao/config';
import { z } from 'zod';

const text = z.string().trim().min(1);
const optionalText = z.string().optional().transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const int = (fallback: number, min = 1) =>
  optionalText.pipe(
    z.string().optional().transform((v, ctx) => {
      if (v === undefined) return fallback;
      if (!/^\d+$/.test(v) || Number(v) < min) {
        ctx.addIssue({ code: 'custom', message: `must be an integer ≥ ${min}` });
        return z.NEVER;
      }
      return Number(v);
    }),
  );
const urlWith = (protocols: string[]) =>
  z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, { message: `must be a URL starting with ${protocols.join(' or ')}//` });

const schema = z.object({
  DATABASE_URL: urlWith(['postgres:', 'postgresql:']),
  REDIS_URL: optionalText.pipe(urlWith(['redis:', 'rediss:']).optional()).transform((v) => v ?? 'redis://127.0.0.1:6379'),
  REDIS_PREFIX: z.string().optional().transform((v) => v ?? ''),
  CERTIFICATE_ENCRYPTION_KEY: z.string().refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v), { message: 'must be the base64 encoding of exactly 32 bytes' }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().transform((v) => v ?? 'info'),
  ISSUER_CONCURRENCY: int(8),
  // The issue job's three statements (snapshot read, submission begin, final statement) of concurrent jobs share
  // multi-row statements, at most this many calls each (0 or 1 = off: one statement per call) …
  ISSUER_DB_BATCH_MAX: int(32, 0),
  // … with at most this many batches of each statement running at once (each on a connection of the pool).
  ISSUER_DB_BATCH_IN_FLIGHT: int(2),
  // How long a job's lock lives without renewal: a killed worker's jobs return to the queue after about this long.
  ISSUER_JOB_LOCK_MS: int(30_000, 1_000),
  ISSUER_STALLED_CHECK_MS: int(30_000, 1_000),
  ISSUER_HEALTH_PORT: int(3100, 0),
  ISSUER_HEALTH_HOST: optionalText.transform((v) => v ?? '127.0.0.1'),
  SWEEPER_INTERVAL_MS: int(30_000),
  SWEEPER_STALE_AFTER_MS: int(120_000),
  SWEEPER_BATCH_SIZE: int(100),
  AUTHORIZER_BASE_URL_HOMOLOGATION: optionalText.pipe(urlWith(['https:']).optional()),
  AUTHORIZER_BASE_URL_PRODUCTION: optionalText.pipe(urlWith(['https:']).optional()),
  AUTHORIZER_CA_BUNDLE_FILE: optionalText,
  AUTHORIZER_CONNECT_TIMEOUT_MS: int(5_000),
  AUTHORIZER_READ_TIMEOUT_MS: int(30_000),
  // infRespTec (platform-level: the software house responsible for the system, rejection 972 without it).
  TECHNICAL_RESPONSIBLE_CNPJ: z.string().regex(/^[0-9A-Z]{12}[0-9]{2}$/, { message: 'must be a CNPJ (14 characters)' }),
  TECHNICAL_RESPONSIBLE_CONTACT: text,
  TECHNICAL_RESPONSIBLE_EMAIL: z.email(),
  TECHNICAL_RESPONSIBLE_PHONE: z.string().regex(/^[0-9]{6,14}$/, { message: 'must have 6 to 14 digits' }),
});

export type IssuerConfig = z.output<typeof schema>;

export function loadIssuerConfig(env: Environment = process.env): IssuerConfig {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.input === undefined ? 'is required' : issue.message}`));
}
