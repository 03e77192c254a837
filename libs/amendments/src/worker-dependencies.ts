// The one wiring of the canceller: the database, the authorizer clients on one pool of mTLS agents, the certificate
// cache, and the `amend` job's dependencies made from them (the canceller app and the tests build them here).
import {
  authorizerWorkerLifecycle,
  type AuthorizerWorkerLifecycle,
  type AuthorizerWorkerSettings,
  openAuthorizerConnections,
} from '@talao/authorizer-exchange';
import { createDatabase, type Database } from '@talao/persistence';
import type { AmendDeps, AmendLogger } from './amend/amend-context.js';
import type { InvalidateDeps } from './amend/run-invalidate-job.js';
import type { AmendmentQueuePort } from './create/ports.js';
import type { SweepPendingDeps } from './sweep/sweep-pending.js';

/** What the wiring reads; the canceller's config (the fragments of @talao/config) has this shape. */
export type AmendmentWorkerSettings = AuthorizerWorkerSettings;

export interface AmendmentWorkerDependencies extends AuthorizerWorkerLifecycle {
  readonly database: Database;
  readonly amend: AmendDeps;
  readonly invalidate: InvalidateDeps;
  /** The sweeper of amendments left pending without a live job. */
  readonly sweep: SweepPendingDeps;
}

export function createAmendmentWorkerDependencies(
  settings: AmendmentWorkerSettings,
  context: { queue: AmendmentQueuePort; logger: AmendLogger & { child(bindings: Record<string, unknown>): AmendLogger } },
): AmendmentWorkerDependencies {
  const { logger } = context;
  const database = createDatabase({
    url: settings.database.url,
    concurrency: settings.worker.concurrency,
    certificateEncryptionKey: settings.certificates.encryptionKey,
    onConnectionError: (error) => logger.warn({ error: error.message }, 'postgres pool connection error'),
  });
  const authorizers = openAuthorizerConnections(settings.authorizers);
  const { companies, certificates, amendments, invalidations } = database;
  const amend: AmendDeps = {
    amendments,
    companies,
    certificates: {
      findActiveId: async (companyId) => (await certificates.findActive(companyId))?.id ?? null,
      unseal: (id) => certificates.unseal(id),
    },
    certificateCache: authorizers.certificateCache,
    sefaz: authorizers.sefaz,
    nfse: authorizers.nfse,
    logger: logger.child({ component: 'amendments' }),
  };
  return {
    database,
    amend,
    invalidate: { ...amend, invalidations },
    sweep: { prisma: database.prisma, queue: context.queue, logger: logger.child({ component: 'sweeper' }) },
    ...authorizerWorkerLifecycle(database, authorizers),
  };
}
