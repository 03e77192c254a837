// The issuer's connections, repositories and clients, created once per process and closed on shutdown.
import { readFileSync } from 'node:fs';
import { MutualTlsAgentPool, NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import { CertificateCache, type IssueDeps, type SweepDeps } from '@talao/issuance';
import type { Logger } from '@talao/observability';
import {
  CertificatesRepository, CertificateVault, coalescingSqlRunner, CompaniesRepository, createPrismaClient, createSqlPool, InvoicesRepository,
  pgPoolSqlRunner, SubmissionsRepository, UsageLedgerRepository,
} from '@talao/persistence';
import { bullJobOptions, jobOptionsFor, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { IssuerConfig } from './issuer-config.js';

export class IssuerResources {
  readonly prisma: ReturnType<typeof createPrismaClient>;
  /** The issue job's statements (snapshot read, submission, final state) as prepared statements, beside Prisma's pool. */
  readonly sqlPool: ReturnType<typeof createSqlPool>;
  readonly redis: Redis;
  readonly queue: Queue;
  readonly agents: MutualTlsAgentPool;
  readonly issueDeps: IssueDeps;
  readonly sweepDeps: SweepDeps;
  readonly queuePrefix: string;

  constructor(readonly config: IssuerConfig, logger: Logger) {
    this.prisma = createPrismaClient(config.DATABASE_URL, { poolMax: Math.max(4, config.ISSUER_CONCURRENCY + 2) });
    this.sqlPool = createSqlPool(config.DATABASE_URL, Math.max(4, config.ISSUER_CONCURRENCY + 2));
    // An idle connection dropped by the server: the pool replaces it on the next query; nothing to crash over.
    this.sqlPool.on('error', (error: Error) => logger.warn({ error: error.message }, 'postgres pool connection error'));
    // Concurrent jobs share their snapshot reads, submission begins and final statements (one runner for both
    // repositories, so a final statement with an answer and one without go together): a multi-row statement costs a
    // fraction of one statement per row. Each batch holds one connection; the pool has concurrency + 2.
    const sql = config.ISSUER_DB_BATCH_MAX > 1
      ? coalescingSqlRunner(pgPoolSqlRunner(this.sqlPool), { maxBatch: config.ISSUER_DB_BATCH_MAX, maxInFlight: config.ISSUER_DB_BATCH_IN_FLIGHT })
      : pgPoolSqlRunner(this.sqlPool);
    // BullMQ needs maxRetriesPerRequest null: its blocking commands must wait through a Redis restart, not fail.
    this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
    this.redis.on('error', (error: Error) => logger.warn({ error: error.message }, 'redis connection error'));
    this.queuePrefix = queueKeyPrefix(config.REDIS_PREFIX);
    this.queue = new Queue(QUEUE_NAMES.issuance, {
      connection: this.redis,
      prefix: this.queuePrefix,
      defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.issuance)),
    });
    this.agents = new MutualTlsAgentPool(config.AUTHORIZER_CA_BUNDLE_FILE ? { caBundlePem: readFileSync(config.AUTHORIZER_CA_BUNDLE_FILE, 'utf8') } : {});
    const baseUrlOverrides = {
      ...(config.AUTHORIZER_BASE_URL_HOMOLOGATION ? { homologation: config.AUTHORIZER_BASE_URL_HOMOLOGATION } : {}),
      ...(config.AUTHORIZER_BASE_URL_PRODUCTION ? { production: config.AUTHORIZER_BASE_URL_PRODUCTION } : {}),
    };
    const timeouts = { connectMs: config.AUTHORIZER_CONNECT_TIMEOUT_MS, readMs: config.AUTHORIZER_READ_TIMEOUT_MS };
    const invoices = new InvoicesRepository(this.prisma, sql);
    const issueLogger = logger.child({ component: 'issuance' });
    this.issueDeps = {
      companies: new CompaniesRepository(this.prisma),
      certificates: new CertificatesRepository(this.prisma, new CertificateVault(config.CERTIFICATE_ENCRYPTION_KEY)),
      certificateCache: new CertificateCache(),
      invoices,
      submissions: new SubmissionsRepository(this.prisma, sql),
      usage: new UsageLedgerRepository(this.prisma),
      sefaz: new SefazClient({ agents: this.agents, baseUrlOverrides, timeouts }),
      nfse: new NfseNacionalClient({ agents: this.agents, baseUrlOverrides, timeouts }),
      technicalResponsible: {
        cnpj: config.TECHNICAL_RESPONSIBLE_CNPJ,
        contact: config.TECHNICAL_RESPONSIBLE_CONTACT,
        email: config.TECHNICAL_RESPONSIBLE_EMAIL,
        phone: config.TECHNICAL_RESPONSIBLE_PHONE,
      },
      logger: issueLogger,
    };
    this.sweepDeps = { invoices, queue: this.queue, logger: logger.child({ component: 'sweeper' }) };
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
    this.agents.destroy();
    await this.prisma.$disconnect();
    await this.sqlPool.end();
  }
}
