// One fragment per concern: the variables it reads (each with its one default), validated, and what it gives the app.
// Apps compose the fragments they need with loadConfig (load-config.ts); a variable read by two apps is read by the
// same fragment, so it cannot get two defaults or two meanings.
import { z } from 'zod';
import { integer, LOG_LEVELS, optionalString, optionalUrl, port, url } from './environment-values.js';

export const databaseConfig = z.object({ DATABASE_URL: url(['postgres:', 'postgresql:']) }).transform((env) => ({ url: env.DATABASE_URL }));

export const redisConfig = z
  .object({
    REDIS_URL: optionalUrl(['redis:', 'rediss:']).transform((v) => v ?? 'redis://127.0.0.1:6379'),
    // Every key the platform writes starts with it (queues under `<prefix>bull`): one per deployment or test run.
    REDIS_PREFIX: optionalString
      .pipe(
        z
          .string()
          .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1–64 characters of letters, digits, _ . : -')
          .optional(),
      )
      .transform((v) => v ?? 'talao:'),
  })
  .transform((env) => ({ url: env.REDIS_URL, prefix: env.REDIS_PREFIX }));

export const loggingConfig = z
  .object({ LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).optional()).transform((v) => v ?? 'info') })
  .transform((env) => ({ level: env.LOG_LEVEL }));

export const certificatesConfig = z
  .object({
    CERTIFICATE_ENCRYPTION_KEY: z.string().refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32, {
      message: 'must be the base64 encoding of exactly 32 random bytes (e.g. `openssl rand -base64 32`)',
    }),
    // PEM file of the ICP-Brasil certificate authorities (roots and intermediates) an uploaded A1 must chain to.
    // Unset: a homologation stack, where only the test CA's certificates are accepted.
    CERTIFICATE_TRUST_BUNDLE_FILE: optionalString,
  })
  .transform((env) => ({
    encryptionKey: env.CERTIFICATE_ENCRYPTION_KEY,
    ...(env.CERTIFICATE_TRUST_BUNDLE_FILE && { trustBundleFile: env.CERTIFICATE_TRUST_BUNDLE_FILE }),
  }));

/** Where SEFAZ and the NFS-e national environment are reached: the real hosts unless overridden (the simulator). */
export const authorizersConfig = z
  .object({
    AUTHORIZER_BASE_URL_HOMOLOGATION: optionalUrl(['https:']),
    AUTHORIZER_BASE_URL_PRODUCTION: optionalUrl(['https:']),
    AUTHORIZER_CA_BUNDLE_FILE: optionalString,
    AUTHORIZER_CONNECT_TIMEOUT_MS: integer(5_000),
    // An authorization may take SEFAZ tens of seconds; a read cut short only costs a consult before any resend.
    AUTHORIZER_READ_TIMEOUT_MS: integer(30_000),
  })
  .transform((env) => ({
    baseUrls: {
      ...(env.AUTHORIZER_BASE_URL_HOMOLOGATION && { homologation: env.AUTHORIZER_BASE_URL_HOMOLOGATION }),
      ...(env.AUTHORIZER_BASE_URL_PRODUCTION && { production: env.AUTHORIZER_BASE_URL_PRODUCTION }),
    } as Partial<Record<'homologation' | 'production', string>>,
    ...(env.AUTHORIZER_CA_BUNDLE_FILE && { caBundleFile: env.AUTHORIZER_CA_BUNDLE_FILE }),
    connectTimeoutMs: env.AUTHORIZER_CONNECT_TIMEOUT_MS,
    readTimeoutMs: env.AUTHORIZER_READ_TIMEOUT_MS,
  }));

/**
 * infRespTec: the software house responsible for the system, written into every NF-e (rejection 972 without it).
 * Required, with no placeholder: a document must never name a made-up company.
 */
export const technicalResponsibleConfig = z
  .object({
    TECHNICAL_RESPONSIBLE_CNPJ: z
      .string({ message: 'is required (infRespTec: the CNPJ of the software house responsible for the system)' })
      .regex(/^[0-9A-Z]{12}[0-9]{2}$/, { message: 'must be a CNPJ (14 characters)' }),
    TECHNICAL_RESPONSIBLE_CONTACT: z.string({ message: 'is required (infRespTec: a contact name)' }).trim().min(1, 'must not be empty'),
    TECHNICAL_RESPONSIBLE_EMAIL: z.email({ message: 'must be an e-mail address' }),
    TECHNICAL_RESPONSIBLE_PHONE: z
      .string({ message: 'is required (infRespTec: a phone number)' })
      .regex(/^[0-9]{6,14}$/, { message: 'must have 6 to 14 digits' }),
  })
  .transform((env) => ({
    cnpj: env.TECHNICAL_RESPONSIBLE_CNPJ,
    contact: env.TECHNICAL_RESPONSIBLE_CONTACT,
    email: env.TECHNICAL_RESPONSIBLE_EMAIL,
    phone: env.TECHNICAL_RESPONSIBLE_PHONE,
  }));

/** The stuck-work sweeper of a worker: how often it looks, what counts as stuck, how much per sweep. */
export const sweeperConfig = z
  .object({
    SWEEPER_INTERVAL_MS: integer(30_000),
    SWEEPER_STALE_AFTER_MS: integer(120_000),
    SWEEPER_BATCH_SIZE: integer(100),
  })
  .transform((env) => ({
    intervalMs: env.SWEEPER_INTERVAL_MS,
    staleAfterMs: env.SWEEPER_STALE_AFTER_MS,
    batchSize: env.SWEEPER_BATCH_SIZE,
  }));

/**
 * Received-invoice collection (apps/received-sync): each company with a certificate is synced every
 * RECEIVED_SYNC_INTERVAL_MS (one hour by default: the freshness a company gets without asking, and the pace the
 * authority tolerates for a tax id with nothing new), each at its own offset within the interval; the job schedulers
 * are reconciled with the companies every RECEIVED_SYNC_RECONCILE_INTERVAL_MS. RECEIVED_SYNC_SCHEDULES=off leaves
 * the schedulers alone (a worker that only serves manual syncs). A manifestation still pending
 * RECEIVED_MANIFESTATION_REDRIVE_AFTER_MS after its last change (3 minutes: its own retries wait 30 s and 60 s) has
 * lost its job and is enqueued again; the worker looks for such rows every RECEIVED_MANIFESTATION_REDRIVE_INTERVAL_MS.
 */
export const receivedSyncConfig = z
  .object({
    RECEIVED_SYNC_INTERVAL_MS: integer(3_600_000),
    RECEIVED_SYNC_RECONCILE_INTERVAL_MS: integer(300_000),
    RECEIVED_SYNC_SCHEDULES: z.enum(['on', 'off']).default('on'),
    RECEIVED_MANIFESTATION_REDRIVE_AFTER_MS: integer(180_000),
    RECEIVED_MANIFESTATION_REDRIVE_INTERVAL_MS: integer(30_000),
  })
  .transform((env) => ({
    intervalMs: env.RECEIVED_SYNC_INTERVAL_MS,
    reconcileIntervalMs: env.RECEIVED_SYNC_RECONCILE_INTERVAL_MS,
    enabled: env.RECEIVED_SYNC_SCHEDULES === 'on',
    redriveAfterMs: env.RECEIVED_MANIFESTATION_REDRIVE_AFTER_MS,
    redriveIntervalMs: env.RECEIVED_MANIFESTATION_REDRIVE_INTERVAL_MS,
  }));

/**
 * A worker app's tuning, its variables named after the app (`ISSUER_CONCURRENCY`, …) so apps sharing an environment
 * (docker-compose, a ConfigMap) are tuned apart.
 */
export function workerConfig(prefix: string, defaults: { concurrency: number; healthPort: number }) {
  const name = (suffix: string) => `${prefix}_${suffix}`;
  return z
    .object({
      [name('CONCURRENCY')]: integer(defaults.concurrency),
      // How long a job's lock lives without renewal: a killed worker's jobs return to the queue after about this long.
      [name('JOB_LOCK_MS')]: integer(30_000, 1_000),
      [name('STALLED_CHECK_MS')]: integer(30_000, 1_000),
      [name('HEALTH_PORT')]: port(defaults.healthPort),
      [name('HEALTH_HOST')]: optionalString.transform((v) => v ?? '127.0.0.1'),
    })
    .transform((env) => ({
      concurrency: env[name('CONCURRENCY')] as number,
      jobLockMs: env[name('JOB_LOCK_MS')] as number,
      stalledCheckMs: env[name('STALLED_CHECK_MS')] as number,
      health: { port: env[name('HEALTH_PORT')] as number, host: env[name('HEALTH_HOST')] as string },
    }));
}

/**
 * What every worker app reads: PostgreSQL, Redis, logging, the certificate key (createDatabase opens the vault with
 * every repository) and its own tuning (workerConfig). An app spreads these and adds its own fragments.
 */
export function workerAppFragments(prefix: string, defaults: { concurrency: number; healthPort: number }) {
  return {
    database: databaseConfig,
    redis: redisConfig,
    logging: loggingConfig,
    certificates: certificatesConfig,
    worker: workerConfig(prefix, defaults),
  };
}

/**
 * Coalescing of a process's hot SQL statements across concurrent callers: `<prefix>_MAX` calls per multi-row
 * statement at most (32; 0 or 1 = off, one statement per call), `<prefix>_IN_FLIGHT` batches of each statement at
 * once (2), each on a connection of its pool. Undefined when off.
 */
export function statementBatchingConfig(prefix: string) {
  const max = `${prefix}_MAX`;
  const inFlight = `${prefix}_IN_FLIGHT`;
  return z
    .object({ [max]: integer(32, 0), [inFlight]: integer(2, 0) })
    .superRefine((env, ctx) => {
      if ((env[inFlight] as number) < 1) ctx.addIssue({ code: 'custom', path: [inFlight], message: 'must be at least 1' });
    })
    .transform((env) => {
      const maxBatch = env[max] as number;
      return maxBatch > 1 ? { maxBatch, maxInFlight: env[inFlight] as number } : undefined;
    });
}

/**
 * Which webhook targets are allowed, read by the gateway (registration) and the webhook dispatcher (connect time)
 * alike. WEBHOOK_ALLOW_LOOPBACK=true accepts loopback targets, over http:// too, so a developer running `npm start`
 * receives webhooks on their machine; off by default and in every deployed environment.
 */
export const webhookTargetConfig = z
  .object({
    WEBHOOK_ALLOW_LOOPBACK: optionalString.pipe(z.enum(['true', 'false']).optional()).transform((v) => v === 'true'),
  })
  .transform((env) => ({ allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK }));

/**
 * The webhook dispatcher's delivery settings: per-attempt timeout, the retry schedule's base delay (30 s: the waits
 * are 1, 4, 20, 120, 360, 720 × base; tests shrink it), how often the outbox is relayed and how many events per step,
 * how often lost work is re-driven from PostgreSQL and how overdue it must be, and the attempts one endpoint may have
 * in flight per dispatcher (so a slow endpoint cannot take every worker slot).
 */
export const webhookDispatchConfig = z
  .object({
    WEBHOOK_DELIVERY_TIMEOUT_MS: integer(10_000),
    WEBHOOK_RETRY_BASE_DELAY_MS: integer(30_000),
    WEBHOOK_RELAY_INTERVAL_MS: integer(100),
    WEBHOOK_RELAY_BATCH_SIZE: integer(500),
    WEBHOOK_SWEEP_INTERVAL_MS: integer(5_000),
    WEBHOOK_SWEEP_GRACE_MS: integer(30_000, 0),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: integer(16),
  })
  .transform((env) => ({
    timeoutMs: env.WEBHOOK_DELIVERY_TIMEOUT_MS,
    retryBaseDelayMs: env.WEBHOOK_RETRY_BASE_DELAY_MS,
    relayIntervalMs: env.WEBHOOK_RELAY_INTERVAL_MS,
    relayBatchSize: env.WEBHOOK_RELAY_BATCH_SIZE,
    sweepIntervalMs: env.WEBHOOK_SWEEP_INTERVAL_MS,
    sweepGraceMs: env.WEBHOOK_SWEEP_GRACE_MS,
    maxInFlightPerEndpoint: env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
  }));

/**
 * The PDF renderer's Chromium (apps/pdf-renderer): CHROMIUM_PATH (unset: Debian's headless shell, else its chromium),
 * PDF_RENDERER_PAGES pages kept open (4), each closed and replaced after PDF_RENDERER_RENDERS_PER_PAGE renders (100),
 * one render bounded by PDF_RENDERER_TIMEOUT_MS (10 s, and 60 ms more per KiB of the document's HTML: a stalled
 * Chromium goes unnoticed that long, libs/rendering pdf-engine.ts), the browser replaced by a new one every
 * PDF_RENDERER_BROWSER_MAX_AGE_MS (2 min: it stalls about three minutes after it starts). PDF_RENDER_ON_AUTHORIZATION
 * (true): render each invoice as soon as an issue job authorizes it, so the first GET finds it stored.
 */
export const pdfRendererConfig = z
  .object({
    CHROMIUM_PATH: optionalString,
    PDF_RENDERER_PAGES: integer(4, 1),
    PDF_RENDERER_RENDERS_PER_PAGE: integer(100, 1),
    PDF_RENDERER_TIMEOUT_MS: integer(10_000, 1_000),
    PDF_RENDERER_BROWSER_MAX_AGE_MS: integer(120_000, 10_000),
    PDF_RENDER_ON_AUTHORIZATION: optionalString.pipe(z.enum(['true', 'false']).optional()),
  })
  .transform((env) => ({
    ...(env.CHROMIUM_PATH && { executablePath: env.CHROMIUM_PATH }),
    pages: env.PDF_RENDERER_PAGES,
    rendersPerPage: env.PDF_RENDERER_RENDERS_PER_PAGE,
    renderTimeoutMs: env.PDF_RENDERER_TIMEOUT_MS,
    maxBrowserAgeMs: env.PDF_RENDERER_BROWSER_MAX_AGE_MS,
    onAuthorization: env.PDF_RENDER_ON_AUTHORIZATION !== 'false',
  }));

/**
 * The MCP app (apps/mcp): MCP_PORT (3400) and MCP_HOST (127.0.0.1) it listens on, GATEWAY_URL the REST API its tools
 * call with each request's own credential. Deliberately no API key variable: the process never has a credential of its own.
 * OAuth (issue 20): MCP_PUBLIC_URL is this server's public /mcp URL (the resource its access tokens name as `aud`,
 * default http://{host}:{port}/mcp) and OAUTH_ISSUER the authorization server (the gateway's /oauth); without
 * OAUTH_ISSUER only API keys are accepted.
 */
export const mcpServerConfig = z
  .object({
    MCP_PORT: port(3400),
    MCP_HOST: optionalString,
    GATEWAY_URL: url(['http:', 'https:']),
    MCP_PUBLIC_URL: optionalUrl(['http:', 'https:']),
    OAUTH_ISSUER: optionalUrl(['http:', 'https:']),
  })
  .transform((env) => {
    const host = env.MCP_HOST ?? '127.0.0.1';
    return {
      port: env.MCP_PORT,
      host,
      gatewayUrl: env.GATEWAY_URL,
      publicUrl: env.MCP_PUBLIC_URL ?? `http://${host}:${env.MCP_PORT}/mcp`,
      ...(env.OAUTH_ISSUER && { oauthIssuer: env.OAUTH_ISSUER.replace(/\/$/, '') }),
    };
  });

const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

/**
 * Tracing, read by the `@talao/observability/instrument` entry every app starts with (`node --import`): the standard
 * OpenTelemetry variables, validated here so a typo fails the boot like any other variable. Tracing is on when an OTLP
 * endpoint is given (OTEL_EXPORTER_OTLP_ENDPOINT or its traces-only form) and neither OTEL_SDK_DISABLED=true nor
 * OTEL_TRACES_EXPORTER=none says otherwise; off, the SDK is never imported. The SDK itself reads the rest of the
 * OTEL_* variables (sampler, batch delays, headers) as documented by OpenTelemetry.
 */
export const tracingConfig = z
  .object({
    OTEL_SDK_DISABLED: optionalString.pipe(z.enum(['true', 'false']).optional()),
    OTEL_TRACES_EXPORTER: optionalString.pipe(z.enum(['otlp', 'none']).optional()),
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(['http:', 'https:']),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl(['http:', 'https:']),
    OTEL_EXPORTER_OTLP_PROTOCOL: optionalString.pipe(z.enum(OTLP_PROTOCOLS).optional()),
    OTEL_SERVICE_NAME: optionalString,
  })
  .transform((env) => {
    const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
    const enabled = endpoint !== undefined && env.OTEL_SDK_DISABLED !== 'true' && env.OTEL_TRACES_EXPORTER !== 'none';
    return {
      enabled,
      ...(endpoint && { endpoint }),
      protocol: env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
      ...(env.OTEL_SERVICE_NAME && { serviceName: env.OTEL_SERVICE_NAME }),
    };
  });
