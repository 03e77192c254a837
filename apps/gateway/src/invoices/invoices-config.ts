// Settings of the invoices feature, read from the environment (the gateway's base config lives in @talao/config),
// composed of config fragments like every app's:
//   ISSUE_WAIT_MS                    how long POST /invoices waits for the authorizer's outcome before 202 (10000)
//   IDEMPOTENCY_LOCK_TTL_MS          a call holding an Idempotency-Key longer than this is presumed dead (wait + 30 s)
//   ISSUER_CACHE_TTL_MS              how long the company and its certificate metadata are reused (2000; 0 = off)
//   AUTHORIZER_*                     where GET /invoices/{access_key} consults (the issuer's fragment, same defaults)
//   DB_BATCH_MAX / DB_BATCH_IN_FLIGHT  concurrent creations whose number reservations / invoice inserts share one
//                                    statement (32; 0 or 1 = off), batches of each running at once (2; ≥ 1)
import { authorizersConfig, type Environment, integer, loadConfig, statementBatchingConfig } from '@talao/config';
import { z } from 'zod';
import { DEFAULT_ISSUER_CACHE_TTL_MS } from './issuer-snapshot-cache.js';

const waitingConfig = z
  .object({
    ISSUE_WAIT_MS: integer(10_000, 0),
    IDEMPOTENCY_LOCK_TTL_MS: integer(-1, 0),
    ISSUER_CACHE_TTL_MS: integer(DEFAULT_ISSUER_CACHE_TTL_MS, 0),
  })
  .transform((env) => ({
    issueWaitMs: env.ISSUE_WAIT_MS,
    idempotencyLockTtlMs: env.IDEMPOTENCY_LOCK_TTL_MS === -1 ? env.ISSUE_WAIT_MS + 30_000 : env.IDEMPOTENCY_LOCK_TTL_MS,
    issuerCacheTtlMs: env.ISSUER_CACHE_TTL_MS,
  }));

export function loadInvoicesConfig(env: Environment = process.env) {
  const { waiting, authorizers, dbBatching } = loadConfig(
    { waiting: waitingConfig, authorizers: authorizersConfig, dbBatching: statementBatchingConfig('DB_BATCH') },
    env,
  );
  return { ...waiting, authorizers, ...(dbBatching && { dbBatching }) };
}

export type InvoicesConfig = ReturnType<typeof loadInvoicesConfig>;
