import { isIP } from 'node:net';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An empty string in the environment means "not set": `FOO= npm start` must not be a different value from no FOO. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** A date as ISO 8601 or an HTTP-date; kept as a Date so the gateway can format the HTTP headers itself. */
const optionalDate = optionalString.pipe(
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const date = new Date(v);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'must be a date (ISO 8601, e.g. 2027-01-31T00:00:00Z, or an HTTP-date)' });
        return z.NEVER;
      }
      return date;
    }),
);

const positiveInt = (fallback: number) =>
  optionalString.pipe(
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return fallback;
        if (!/^\d+$/.test(v) || Number(v) < 1) {
          ctx.addIssue({ code: 'custom', message: 'must be a positive integer' });
          return z.NEVER;
        }
        return Number(v);
      }),
  );

/** Names Express's "trust proxy" understands for whole address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUSTED_PROXIES: the reverse proxies whose X-Forwarded-For is believed (addresses, CIDR ranges, or loopback /
 * linklocal / uniquelocal), comma-separated. Default none: the client IP is the socket's peer, so a client cannot
 * pick its own IP (and reset its per-IP allowance) by sending the header.
 */
const trustedProxies = optionalString.pipe(
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return [] as string[];
      const entries = v.split(',').map((entry) => entry.trim()).filter(Boolean);
      const bad = entries.filter((entry) => !isProxyAddress(entry));
      if (bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: 'must list IP addresses, CIDR ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal, comma-separated' });
        return z.NEVER;
      }
      return entries;
    }),
);

export const databaseSchema = z.object({
  DATABASE_URL: url(['postgres:', 'postgresql:']),
});

export const certificateKeySchema = z.object({
  CERTIFICATE_ENCRYPTION_KEY: z.string().refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32, {
    message: 'must be the base64 encoding of exactly 32 random bytes (e.g. `openssl rand -base64 32`)',
  }),
});

/**
 * CERTIFICATE_TRUST_BUNDLE_FILE: PEM file of the ICP-Brasil certificate authorities (roots and intermediates) an
 * uploaded A1 must chain to. Unset: a homologation stack, where only the test CA's certificates are accepted.
 */
export const certificateTrustSchema = z.object({
  CERTIFICATE_TRUST_BUNDLE_FILE: optionalString,
});

export const loggingSchema = z.object({
  LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).optional()).transform((v) => v ?? 'info'),
});

export const gatewaySchema = databaseSchema
  .extend(certificateKeySchema.shape)
  .extend(certificateTrustSchema.shape)
  .extend(loggingSchema.shape)
  .extend({
    PORT: optionalString.pipe(
      z
        .string()
        .optional()
        .transform((v, ctx) => {
          if (v === undefined) return 3000;
          const port = Number(v);
          if (!/^\d+$/.test(v) || port > 65535) {
            ctx.addIssue({ code: 'custom', message: 'must be a TCP port number (0–65535)' });
            return z.NEVER;
          }
          return port;
        }),
    ),
    HOST: optionalString.transform((v) => v ?? '0.0.0.0'),
    REDIS_URL: optionalString.pipe(url(['redis:', 'rediss:']).optional()).transform((v) => v ?? 'redis://127.0.0.1:6379'),
    REDIS_PREFIX: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1–64 characters of letters, digits, _ . : -')
        .optional(),
    ).transform((v) => v ?? 'talao:'),
    ADMIN_TOKEN: z
      .string({ message: 'is required (a random secret of at least 32 characters, e.g. `openssl rand -hex 32`)' })
      .min(32, 'must be at least 32 characters long'),
    PUBLIC_BASE_URL: optionalString.pipe(url(['http:', 'https:']).optional()),
    BODY_LIMIT_BYTES: positiveInt(1024 * 1024),
    TRUSTED_PROXIES: trustedProxies,
    READINESS_TIMEOUT_MS: positiveInt(1000),
    API_V1_DEPRECATED_AT: optionalDate,
    API_V1_SUNSET_AT: optionalDate,
    API_V1_DEPRECATION_LINK: optionalString.pipe(url(['http:', 'https:']).optional()),
  });
