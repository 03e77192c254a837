// Settings of the invoices feature, read from the environment (the gateway's base config lives in @talao/config):
//   ISSUE_WAIT_MS                    how long POST /invoices waits for the authorizer's outcome before 202 (10000)
//   IDEMPOTENCY_LOCK_TTL_MS          a call holding an Idempotency-Key longer than this is presumed dead (wait + 30 s)
//   AUTHORIZER_BASE_URL_HOMOLOGATION / _PRODUCTION, AUTHORIZER_CA_BUNDLE_FILE, AUTHORIZER_READ_TIMEOUT_MS
//                                    where GET /invoices/{access_key} consults (the issuer reads the same variables)
//   ISSUER_CACHE_TTL_MS              how long the company and its certificate metadata are reused (2000; 0 = off)
//   DB_BATCH_MAX                     concurrent creations whose number reservations / invoice inserts share one
//                                    statement, at most (32; 0 or 1 = off: one statement per creation)
//   DB_BATCH_IN_FLIGHT               batches of each of those two statements running at once (2; ≥ 1)
import { ConfigError } from '@talao/config';
import { DEFAULT_ISSUER_CACHE_TTL_MS } from './issuer-snapshot-cache.js';

export interface InvoicesConfig {
  issueWaitMs: number;
  idempotencyLockTtlMs: number;
  issuerCacheTtlMs: number;
  authorizerBaseUrls: Partial<Record<'homologation' | 'production', string>>;
  authorizerCaBundleFile?: string;
  authorizerReadTimeoutMs: number;
  /** Batching of the create path's two statements (coalescingSqlRunner's options); absent when DB_BATCH_MAX ≤ 1. */
  dbBatching?: { maxBatch: number; maxInFlight: number };
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) {
    problems.push(`${name} must be a non-negative integer`);
    return fallback;
  }
  return Number(raw);
}

function httpsUrl(env: Env, name: string, problems: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  try {
    if (new URL(raw).protocol === 'https:') return raw;
  } catch {
    // reported below
  }
  problems.push(`${name} must be an https:// URL`);
  return undefined;
}

export function loadInvoicesConfig(env: Env = process.env): InvoicesConfig {
  const problems: string[] = [];
  const issueWaitMs = integer(env, 'ISSUE_WAIT_MS', 10_000, problems);
  const homologation = httpsUrl(env, 'AUTHORIZER_BASE_URL_HOMOLOGATION', problems);
  const production = httpsUrl(env, 'AUTHORIZER_BASE_URL_PRODUCTION', problems);
  const dbBatchMax = integer(env, 'DB_BATCH_MAX', 32, problems);
  const dbBatchInFlight = integer(env, 'DB_BATCH_IN_FLIGHT', 2, problems);
  if (dbBatchInFlight < 1) problems.push('DB_BATCH_IN_FLIGHT must be at least 1');
  const config: InvoicesConfig = {
    issueWaitMs,
    idempotencyLockTtlMs: integer(env, 'IDEMPOTENCY_LOCK_TTL_MS', issueWaitMs + 30_000, problems),
    issuerCacheTtlMs: integer(env, 'ISSUER_CACHE_TTL_MS', DEFAULT_ISSUER_CACHE_TTL_MS, problems),
    authorizerBaseUrls: { ...(homologation ? { homologation } : {}), ...(production ? { production } : {}) },
    ...(env.AUTHORIZER_CA_BUNDLE_FILE?.trim() ? { authorizerCaBundleFile: env.AUTHORIZER_CA_BUNDLE_FILE.trim() } : {}),
    authorizerReadTimeoutMs: integer(env, 'AUTHORIZER_READ_TIMEOUT_MS', 10_000, problems),
    ...(dbBatchMax > 1 ? { dbBatching: { maxBatch: dbBatchMax, maxInFlight: dbBatchInFlight } } : {}),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
