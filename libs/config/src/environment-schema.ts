// The gateway's own variables (HTTP listener, admin token, body limit, deprecation of API versions); the variables it
// shares with other apps come from fragments.ts.
import { isIP } from 'node:net';
import { z } from 'zod';
import { integer, optionalDate, optionalString, optionalUrl, port } from './environment-values.js';

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
      const entries = v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      const bad = entries.filter((entry) => !isProxyAddress(entry));
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: 'must list IP addresses, CIDR ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal, comma-separated',
        });
        return z.NEVER;
      }
      return entries;
    }),
);

export const gatewayHttpConfig = z.object({
  PORT: port(3000),
  HOST: optionalString.transform((v) => v ?? '0.0.0.0'),
  ADMIN_TOKEN: z
    .string({ message: 'is required (a random secret of at least 32 characters, e.g. `openssl rand -hex 32`)' })
    .min(32, 'must be at least 32 characters long'),
  PUBLIC_BASE_URL: optionalUrl(['http:', 'https:']),
  BODY_LIMIT_BYTES: integer(1024 * 1024),
  TRUSTED_PROXIES: trustedProxies,
  READINESS_TIMEOUT_MS: integer(1000),
  API_V1_DEPRECATED_AT: optionalDate,
  API_V1_SUNSET_AT: optionalDate,
  API_V1_DEPRECATION_LINK: optionalUrl(['http:', 'https:']),
  // The OAuth authorization server of the MCP interface (issue 20): on when MCP_PUBLIC_URL (the resource, the `aud`
  // of its access tokens) is set; OAUTH_ISSUER defaults to {PUBLIC_BASE_URL}/oauth.
  MCP_PUBLIC_URL: optionalUrl(['http:', 'https:']),
  OAUTH_ISSUER: optionalUrl(['http:', 'https:']),
});
