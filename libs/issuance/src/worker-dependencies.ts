// The one wiring of the issuance side: the database (pools and statement batching inside), the authorizer clients
// on one pool of mTLS agents, the certificate cache, and each use case's dependencies made from them. The issuer
// app, the e2e harness and the benches all build their dependencies here, so what they run is what production runs.
import {
  authorizerWorkerLifecycle,
  type AuthorizerWorkerLifecycle,
  type AuthorizerWorkerSettings,
  openAuthorizerConnections,
} from '@talao/authorizer-exchange';
import type { TechnicalResponsible } from '@talao/fiscal-model';
import { createDatabase, type Database } from '@talao/persistence';
import type { CreateInvoiceDeps } from './create/create-invoice.js';
import type { IssuanceLogger, IssuanceQueuePort } from './ports.js';
import type { IssueDeps } from './issue/issue-context.js';
import type { SweepDeps } from './sweep/sweep-stuck-invoices.js';

/** What the wiring reads; the issuer's config (the fragments of @talao/config) has this shape. */
export interface IssuanceWorkerSettings extends AuthorizerWorkerSettings {
  technicalResponsible: TechnicalResponsible;
  /** Coalescing of the issue job's statements across concurrent jobs (undefined: one statement per call). */
  batching?: { maxBatch: number; maxInFlight: number } | undefined;
}

export interface IssuanceWorkerDependencies extends AuthorizerWorkerLifecycle {
  readonly database: Database;
  /** The `issue` job's. */
  readonly issue: IssueDeps;
  /** The stuck-invoice sweeper's. */
  readonly sweep: SweepDeps;
  /** Invoice creation's (the gateway's use case; tests and benches create invoices with it). */
  readonly create: CreateInvoiceDeps;
}

export interface IssuanceWorkerContext {
  /** The issuance queue (the sweeper re-drives stuck invoices into it). */
  queue: IssuanceQueuePort;
  logger: IssuanceLogger & { child(bindings: Record<string, unknown>): IssuanceLogger };
}

export function createIssuanceWorkerDependencies(
  settings: IssuanceWorkerSettings,
  context: IssuanceWorkerContext,
): IssuanceWorkerDependencies {
  const { logger, queue } = context;
  const database = createDatabase({
    url: settings.database.url,
    concurrency: settings.worker.concurrency,
    ...(settings.batching && { batching: settings.batching }),
    certificateEncryptionKey: settings.certificates.encryptionKey,
    onConnectionError: (error) => logger.warn({ error: error.message }, 'postgres pool connection error'),
  });
  const authorizers = openAuthorizerConnections(settings.authorizers);
  const issuanceLogger = logger.child({ component: 'issuance' });
  const { companies, certificates, invoices, submissions, usage } = database;
  return {
    database,
    issue: {
      companies,
      certificates,
      invoices,
      submissions,
      usage,
      certificateCache: authorizers.certificateCache,
      sefaz: authorizers.sefaz,
      nfse: authorizers.nfse,
      technicalResponsible: settings.technicalResponsible,
      logger: issuanceLogger,
    },
    sweep: { invoices, queue, logger: logger.child({ component: 'sweeper' }) },
    create: { companies, certificates, invoices, queue, logger: issuanceLogger },
    ...authorizerWorkerLifecycle(database, authorizers),
  };
}
