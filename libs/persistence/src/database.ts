// The issuance database as a worker (or a test, or a bench) uses it: the Prisma client, the hot path's pg pool of
// prepared statements and, under concurrency, the coalescing of its statements across callers — all made here, so
// a caller asks for repositories and never picks pools, runners or batching itself.
import { AmendmentsRepository } from './repositories/amendments-repository.js';
import { CertificateVault } from './certificate-vault.js';
import { createPrismaClient } from './prisma-client.js';
import { CertificatesRepository } from './repositories/certificates-repository.js';
import { CompaniesRepository } from './repositories/companies-repository.js';
import { DocumentPdfsRepository } from './repositories/document-pdfs-repository.js';
import { InvalidationsRepository } from './repositories/invalidations-repository.js';
import { InvoicesRepository } from './repositories/invoices-repository.js';
import { OutboxRepository } from './repositories/outbox-repository.js';
import { coalescingSqlRunner, createSqlPool, pgPoolSqlRunner } from './repositories/sql-runner.js';
import type { StatementBatcherOptions } from './repositories/statement-batcher.js';
import { SubmissionsRepository } from './repositories/submissions-repository.js';
import { UsageLedgerRepository } from './repositories/usage-ledger-repository.js';

export interface DatabaseOptions {
  url: string;
  /** Callers that may hold a connection at once (a worker's job concurrency): each pool gets that many plus two. */
  concurrency: number;
  /** Concurrent calls of the hot statements share multi-row statements (absent: one statement per call). */
  batching?: StatementBatcherOptions;
  certificateEncryptionKey: string;
  /** An idle connection dropped by the server: the pool replaces it on the next query, so this only reports it. */
  onConnectionError?: (error: Error) => void;
}

export interface Database {
  readonly prisma: ReturnType<typeof createPrismaClient>;
  readonly companies: CompaniesRepository;
  readonly certificates: CertificatesRepository;
  readonly invoices: InvoicesRepository;
  readonly submissions: SubmissionsRepository;
  readonly usage: UsageLedgerRepository;
  readonly outbox: OutboxRepository;
  readonly amendments: AmendmentsRepository;
  readonly invalidations: InvalidationsRepository;
  readonly pdfs: DocumentPdfsRepository;
  /** Resolves when PostgreSQL answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase(options: DatabaseOptions): Database {
  const poolSize = Math.max(4, options.concurrency + 2);
  const prisma = createPrismaClient(options.url, { poolMax: poolSize });
  const pool = createSqlPool(options.url, poolSize);
  pool.on('error', (error: Error) => options.onConnectionError?.(error));
  // One runner for every repository, so the final statements with and without an answer go together; each batch
  // holds one connection of the pool.
  const sql = options.batching ? coalescingSqlRunner(pgPoolSqlRunner(pool), options.batching) : pgPoolSqlRunner(pool);
  return {
    prisma,
    companies: new CompaniesRepository(prisma),
    certificates: new CertificatesRepository(prisma, new CertificateVault(options.certificateEncryptionKey)),
    invoices: new InvoicesRepository(prisma, sql),
    submissions: new SubmissionsRepository(prisma, sql),
    usage: new UsageLedgerRepository(prisma),
    outbox: new OutboxRepository(prisma),
    amendments: new AmendmentsRepository(prisma, sql),
    invalidations: new InvalidationsRepository(prisma),
    pdfs: new DocumentPdfsRepository(prisma, sql),
    ping: async () => {
      await pool.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
