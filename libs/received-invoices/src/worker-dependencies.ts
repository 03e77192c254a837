// The one wiring of the received-sync worker: the database (Prisma for companies and certificates, a pg pool for
// the received tables and the tax id locks), the SEFAZ client on a pool of mTLS agents and the certificate cache.
import {
  authorizerWorkerLifecycle,
  type AuthorizerWorkerLifecycle,
  type AuthorizerWorkerSettings,
  openAuthorizerConnections,
} from '@talao/authorizer-exchange';
import {
  createDatabase,
  createSqlPool,
  type Database,
  ReceivedDocumentsRepository,
  ReceivedManifestationsRepository,
} from '@talao/persistence';
import type { ManifestationQueuePort } from './manifest/request-manifestation.js';
import type { ManifestDeps } from './manifest-received.js';
import type { SchedulerQueue } from './schedules.js';
import type { SyncReceivedJobDeps } from './sync-received.js';
import type { SyncReceivedDeps } from './sync-received-nfe.js';

/** What the wiring reads; the received-sync worker's config (the fragments of @talao/config) has this shape. */
export type ReceivedWorkerSettings = AuthorizerWorkerSettings;

export interface ReceivedWorkerDependencies extends AuthorizerWorkerLifecycle {
  readonly database: Database;
  readonly received: ReceivedDocumentsRepository;
  readonly sync: SyncReceivedJobDeps;
  readonly manifest: ManifestDeps;
  /** The worker's own queue, where the per-company job schedulers live (and pending manifestations are re-driven). */
  readonly schedulerQueue: SchedulerQueue & ManifestationQueuePort;
  readonly manifestations: ReceivedManifestationsRepository;
}

export function createReceivedWorkerDependencies(
  settings: ReceivedWorkerSettings,
  context: {
    queue: SchedulerQueue & ManifestationQueuePort;
    logger: SyncReceivedDeps['logger'] & { child(bindings: Record<string, unknown>): SyncReceivedDeps['logger'] };
  },
): ReceivedWorkerDependencies {
  const database = createDatabase({
    url: settings.database.url,
    concurrency: 1,
    certificateEncryptionKey: settings.certificates.encryptionKey,
  });
  // Each sync holds one connection for its whole run (the tax id's advisory lock lives on it).
  const pool = createSqlPool(settings.database.url, settings.worker.concurrency + 2);
  pool.on('error', (error: Error) => context.logger.warn({ error: error.message }, 'postgres pool connection error'));
  const received = new ReceivedDocumentsRepository(pool);
  const authorizers = openAuthorizerConnections(settings.authorizers);
  const manifestations = new ReceivedManifestationsRepository(pool);
  const lifecycle = authorizerWorkerLifecycle(database, authorizers);
  return {
    database,
    received,
    manifestations,
    schedulerQueue: context.queue,
    sync: {
      companies: database.companies,
      certificates: database.certificates,
      certificateCache: authorizers.certificateCache,
      received,
      sefaz: authorizers.sefaz,
      nfse: authorizers.nfse,
      logger: context.logger.child({ component: 'received-sync' }),
    },
    manifest: {
      companies: database.companies,
      certificates: database.certificates,
      certificateCache: authorizers.certificateCache,
      manifestations,
      sefaz: authorizers.sefaz,
      logger: context.logger.child({ component: 'manifest' }),
    },
    checks: lifecycle.checks,
    async close() {
      await lifecycle.close();
      await pool.end();
    },
  };
}
