import type { z } from 'zod';
import { gatewayHttpConfig } from './environment-schema.js';
import { certificatesConfig, databaseConfig, loggingConfig, redisConfig } from './fragments.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** Thrown at boot; `message` names every bad variable and why, and never repeats a value (values may be secrets). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface ApiVersionDeprecation {
  readonly deprecatedAt?: Date;
  readonly sunsetAt?: Date;
  readonly link?: string;
}

export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly adminToken: string;
  readonly certificateEncryptionKey: string;
  /** CERTIFICATE_TRUST_BUNDLE_FILE: the ICP-Brasil CAs uploads must chain to; absent: the test CA only. */
  readonly certificateTrustBundleFile?: string;
  readonly logLevel: string;
  readonly publicBaseUrl?: string;
  readonly bodyLimitBytes: number;
  /** Proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES); empty: the socket's peer is the client. */
  readonly trustedProxies: readonly string[];
  readonly readinessTimeoutMs: number;
  /** `RATE_LIMIT_<OPERATION>` variables, requests per minute; the gateway checks the names against its table. */
  readonly rateLimitOverrides: Readonly<Record<string, number>>;
  /** Per API version ("v1"), when that version is deprecated. */
  readonly deprecations: Readonly<Record<string, ApiVersionDeprecation>>;
  /** The OAuth authorization server for the MCP interface; absent: only API keys are accepted. */
  readonly oauth?: { readonly issuer: string; readonly resource: string };
}

export interface AdminCliConfig {
  readonly databaseUrl: string;
  readonly certificateEncryptionKey: string;
  readonly certificateTrustBundleFile?: string;
  readonly logLevel: string;
}

/** Fragments by the name the app reads them under (fragments.ts), e.g. `{ database: databaseConfig }`. */
export type ConfigFragments = Record<string, z.ZodType>;
export type ConfigOf<F extends ConfigFragments> = { readonly [K in keyof F]: z.output<F[K]> };

function problemsOf(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const variable = issue.path.join('.') || '(environment)';
    // zod's default message for a missing string quotes the expected type; say what the operator must do.
    const message =
      issue.code === 'invalid_type' && issue.input === undefined && !issue.message.startsWith('is required')
        ? 'is required'
        : issue.message;
    return `${variable} ${message}`;
  });
}

/**
 * Parses `env` with every fragment; throws one ConfigError naming every bad variable of all of them (plus
 * `extraProblems`), so an operator fixes the environment in one go.
 */
export function loadConfig<F extends ConfigFragments>(
  fragments: F,
  env: Environment = process.env,
  extraProblems: readonly string[] = [],
): ConfigOf<F> {
  const problems = [...extraProblems];
  const config: Record<string, unknown> = {};
  for (const [name, fragment] of Object.entries(fragments)) {
    const result = fragment.safeParse(env);
    if (result.success) config[name] = result.data;
    else problems.push(...problemsOf(result.error.issues));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as ConfigOf<F>;
}

const RATE_LIMIT_VARIABLE = /^RATE_LIMIT_([A-Z0-9_]+)$/;

function rateLimitOverrides(env: Environment, problems: string[]): Record<string, number> {
  const overrides: Record<string, number> = {};
  for (const [name, raw] of Object.entries(env)) {
    const match = RATE_LIMIT_VARIABLE.exec(name);
    if (!match?.[1] || raw === undefined || raw.trim() === '') continue;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) {
      problems.push(`${name} must be a positive integer (requests per minute)`);
      continue;
    }
    overrides[match[1].toLowerCase()] = Number(raw);
  }
  return overrides;
}

/** Reads and validates the gateway's environment; throws ConfigError listing every problem at once. */
export function loadGatewayConfig(env: Environment = process.env): GatewayConfig {
  const problems: string[] = [];
  const overrides = rateLimitOverrides(env, problems);
  const {
    http: parsed,
    database,
    redis,
    logging,
    certificates,
  } = loadConfig(
    { http: gatewayHttpConfig, database: databaseConfig, redis: redisConfig, logging: loggingConfig, certificates: certificatesConfig },
    env,
    problems,
  );
  if (parsed.OAUTH_ISSUER && !parsed.MCP_PUBLIC_URL) {
    throw new ConfigError(['OAUTH_ISSUER needs MCP_PUBLIC_URL (the MCP URL its access tokens are for)']);
  }
  if (parsed.MCP_PUBLIC_URL && !parsed.OAUTH_ISSUER && !parsed.PUBLIC_BASE_URL) {
    throw new ConfigError(['MCP_PUBLIC_URL needs OAUTH_ISSUER or PUBLIC_BASE_URL (the issuer is then {PUBLIC_BASE_URL}/oauth)']);
  }
  if (parsed.API_V1_DEPRECATED_AT && parsed.API_V1_SUNSET_AT && parsed.API_V1_SUNSET_AT < parsed.API_V1_DEPRECATED_AT) {
    throw new ConfigError(['API_V1_SUNSET_AT must not be earlier than API_V1_DEPRECATED_AT']);
  }
  const v1: ApiVersionDeprecation = {
    ...(parsed.API_V1_DEPRECATED_AT && { deprecatedAt: parsed.API_V1_DEPRECATED_AT }),
    ...(parsed.API_V1_SUNSET_AT && { sunsetAt: parsed.API_V1_SUNSET_AT }),
    ...(parsed.API_V1_DEPRECATION_LINK && { link: parsed.API_V1_DEPRECATION_LINK }),
  };
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: database.url,
    redisUrl: redis.url,
    redisPrefix: redis.prefix,
    adminToken: parsed.ADMIN_TOKEN,
    certificateEncryptionKey: certificates.encryptionKey,
    ...(certificates.trustBundleFile && { certificateTrustBundleFile: certificates.trustBundleFile }),
    logLevel: logging.level,
    ...(parsed.PUBLIC_BASE_URL && { publicBaseUrl: parsed.PUBLIC_BASE_URL }),
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES,
    trustedProxies: parsed.TRUSTED_PROXIES,
    readinessTimeoutMs: parsed.READINESS_TIMEOUT_MS,
    rateLimitOverrides: overrides,
    deprecations: Object.keys(v1).length > 0 ? { v1 } : {},
    ...(parsed.MCP_PUBLIC_URL && {
      oauth: {
        issuer: (parsed.OAUTH_ISSUER ?? `${parsed.PUBLIC_BASE_URL!.replace(/\/$/, '')}/oauth`).replace(/\/$/, ''),
        resource: parsed.MCP_PUBLIC_URL,
      },
    }),
  };
}

/** The operator CLI needs the database and the certificate key only (no HTTP, no Redis, no admin token). */
export function loadAdminCliConfig(env: Environment = process.env): AdminCliConfig {
  const { database, certificates, logging } = loadConfig(
    { database: databaseConfig, certificates: certificatesConfig, logging: loggingConfig },
    env,
  );
  return {
    databaseUrl: database.url,
    certificateEncryptionKey: certificates.encryptionKey,
    ...(certificates.trustBundleFile && { certificateTrustBundleFile: certificates.trustBundleFile }),
    logLevel: logging.level,
  };
}

/** A copy safe to print or log: secrets replaced, the database password removed from its URL. */
export function describeConfig(config: GatewayConfig): Record<string, unknown> {
  const db = new URL(config.databaseUrl);
  if (db.password) db.password = '***';
  const redis = new URL(config.redisUrl);
  if (redis.password) redis.password = '***';
  return {
    ...config,
    databaseUrl: db.toString(),
    redisUrl: redis.toString(),
    adminToken: '***',
    certificateEncryptionKey: '***',
  };
}
