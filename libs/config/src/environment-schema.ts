// The gateway's own variables (HTTP listener, admin token, body limit, deprecation of API versions); the variables it
// shares with other apps come from fragments.ts.
import { z } from 'zod';
import { integer, optionalDate, optionalString, optionalUrl, port } from './environment-values.js';

export const gatewayHttpConfig = z.object({
  PORT: port(3000),
  HOST: optionalString.transform((v) => v ?? '0.0.0.0'),
  ADMIN_TOKEN: z
    .string({ message: 'is required (a random secret of at least 32 characters, e.g. `openssl rand -hex 32`)' })
    .min(32, 'must be at least 32 characters long'),
  PUBLIC_BASE_URL: optionalUrl(['http:', 'https:']),
  BODY_LIMIT_BYTES: integer(1024 * 1024),
  READINESS_TIMEOUT_MS: integer(1000),
  API_V1_DEPRECATED_AT: optionalDate,
  API_V1_SUNSET_AT: optionalDate,
  API_V1_DEPRECATION_LINK: optionalUrl(['http:', 'https:']),
});
