// The one wiring of the received-sync worker: the database (Prisma for companies and certificates, a pg pool for
// the received tables and the tax id locks), the SEFAZ client on a pool of mTLS agents and the certificate cache.
import { type AuthorizerConnectionSettings, openAuthorizerConnections } from '@talao/authorizer-exchange';
import { createDatabase, createSqlPool, type Database, ReceivedDocumentsRepository } from '@talao/persistence';
import type { SchedulerQueue } from './schedules.js';
import type { SyncReceivedJobDeps } from './sync-received.js';
import type { SyncReceivedDeps } from './sync-received-nfe.js';

export interface ReceivedWorkerSettings {
  database: { url: string };
  certificates: { encryptionKey: string };
  authorizers: AuthorizerConnectionSettings;
  worker: { concurrency: number };
}

export interface ReceivedWorkerDependencies {
  readonly database: Database;
  readonly received: ReceivedDocumentsRepository;
  readonly sync: SyncReceivedJobDeps;
  /** The worker's own queue, where the per-company job schedulers live. */
  readonly schedulerQueue: SchedulerQueue;
  readonly checks: { database: () => Promise<void> };
  close(): Promise<void>;
}

export function createReceivedWorkerDependencies(
  settings: ReceivedWorkerSettings,
  context: {
    queue: SchedulerQueue;
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
  return {
    database,
    received,
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
    checks: { database: () => database.ping() },
    async close() {
      authorizers.close();
      await pool.end();
      await database.close();
    },
  };
}
