// What the invoice routes use besides GatewayResources: the issuance queue (producer) and its job outcomes (to wait
// for them), the issuance repositories, the authorizer clients for consults (made on first use), and the
// Idempotency-Key store.
import { readFileSync } from 'node:fs';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { type CreateInvoiceDeps, OutcomeWaiter } from '@talao/issuance/create';
import type { Logger } from '@talao/observability';
import {
  AmendmentsRepository,
  CertificatesRepository,
  InvalidationsRepository,
  CertificateVault,
  coalescingSqlRunner,
  createSqlPool,
  DocumentPdfsRepository,
  InvoicesRepository,
  NUMBERING_POOL_OPTIONS,
  pgPoolSqlRunner,
  SubmissionsRepository,
} from '@talao/persistence';
import { type JobOutcomeSubscription, QUEUE_NAMES } from '@talao/queue-contracts';
import type { Queue } from 'bullmq';
import type { GatewayResources } from '../gateway-resources.js';
import { QueueProducer } from '../queues/queue-producer.js';
import type { AuthorizerConsult } from './authorizer-consult.js';
import { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { InvoicesConfig } from './invoices-config.js';
import { cachedIssuerSnapshots } from './issuer-snapshot-cache.js';

const DAY_MS = 24 * 3_600_000;

export class InvoicesResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly jobOutcomes: JobOutcomeSubscription;
  readonly invoices: InvoicesRepository;
  readonly submissions: SubmissionsRepository;
  /** Cancellations and correction letters filed on the invoices (GET lists them beside the record). */
  readonly amendments: AmendmentsRepository;
  /** Numbering invalidations: a failed NF-e's submissions show the invalidation of its number. */
  readonly invalidations: InvalidationsRepository;
  readonly certificates: CertificatesRepository;
  readonly createDeps: CreateInvoiceDeps;
  readonly waiter: OutcomeWaiter;
  readonly idempotency: IdempotencyStore;
  /** The stored PDFs (GET /invoices/{access_key}/pdf), read and written as prepared statements on the same pool. */
  readonly pdfs: DocumentPdfsRepository;
  /** The authorizer clients of GET /invoices/{access_key}, once the first consult made them. */
  private consult: Promise<AuthorizerConsult> | undefined;
  private readonly caBundlePem: string | undefined;
  private readonly producer: QueueProducer;
  /** The create path's statements (insert, outcome read) as prepared statements, beside Prisma's pool. */
  private readonly sqlPool: ReturnType<typeof createSqlPool>;
  /** Number reservations, committed asynchronously (NUMBERING_POOL_OPTIONS says why that is safe). */
  private readonly numberingPool: ReturnType<typeof createSqlPool>;

  constructor(
    gatewayConfig: GatewayConfig,
    readonly config: InvoicesConfig,
    gateway: GatewayResources,
    logger: Logger,
  ) {
    this.producer = new QueueProducer(gatewayConfig, QUEUE_NAMES.issuance, logger);
    this.queue = this.producer.queue;
    this.jobOutcomes = this.producer.outcomes;
    this.sqlPool = createSqlPool(gatewayConfig.databaseUrl, 10);
    this.numberingPool = createSqlPool(gatewayConfig.databaseUrl, 4, NUMBERING_POOL_OPTIONS);
    // An idle connection dropped by the server: the pool replaces it on the next query; nothing to crash over.
    for (const pool of [this.sqlPool, this.numberingPool])
      pool.on('error', (error: Error) => logger.warn({ error: error.message }, 'postgres pool connection error'));
    // Concurrent creations share their reservation and insert statements (a multi-row statement costs a fraction of
    // one statement per row); each batch holds one connection, so DB_BATCH_IN_FLIGHT stays below both pools' sizes.
    const runner = (pool: ReturnType<typeof createSqlPool>) =>
      config.dbBatching ? coalescingSqlRunner(pgPoolSqlRunner(pool), config.dbBatching) : pgPoolSqlRunner(pool);
    this.invoices = new InvoicesRepository(gateway.prisma, runner(this.sqlPool), runner(this.numberingPool));
    this.submissions = new SubmissionsRepository(gateway.prisma);
    this.amendments = new AmendmentsRepository(gateway.prisma);
    this.invalidations = new InvalidationsRepository(gateway.prisma);
    this.pdfs = new DocumentPdfsRepository(gateway.prisma, pgPoolSqlRunner(this.sqlPool));
    this.certificates = new CertificatesRepository(gateway.prisma, new CertificateVault(gatewayConfig.certificateEncryptionKey));
    const snapshots = cachedIssuerSnapshots(gateway.companies, this.certificates, config.issuerCacheTtlMs);
    gateway.onConfigurationChanged(() => snapshots.forgetAll());
    this.createDeps = {
      companies: snapshots.companies,
      certificates: snapshots.certificates,
      invoices: this.invoices,
      queue: this.queue,
      logger: logger.child({ component: 'issuance' }),
    };
    this.waiter = new OutcomeWaiter(this.invoices, this.jobOutcomes);
    this.idempotency = new IdempotencyStore(gateway.prisma, { retentionMs: DAY_MS, lockTtlMs: config.idempotencyLockTtlMs });
    // Read at boot, so a missing file stops the gateway now rather than failing its first consult.
    this.caBundlePem = config.authorizers.caBundleFile ? readFileSync(config.authorizers.caBundleFile, 'utf8') : undefined;
  }

  /**
   * Made on the first consult: the clients bring the XML and signing libraries (libxml2-wasm, xml-crypto, node-forge),
   * which the gateway's issuance path never needs, so a gateway that only issues never loads them.
   */
  authorizerConsult(): Promise<AuthorizerConsult> {
    this.consult ??= import('./authorizer-consult.js').then(
      ({ AuthorizerConsult }) =>
        new AuthorizerConsult({
          caBundlePem: this.caBundlePem,
          baseUrls: this.config.authorizers.baseUrls,
          connectTimeoutMs: this.config.authorizers.connectTimeoutMs,
          readTimeoutMs: this.config.authorizers.readTimeoutMs,
        }),
    );
    return this.consult;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
    if (this.consult) (await this.consult.catch(() => undefined))?.destroy();
    await Promise.all([this.sqlPool.end().catch(() => undefined), this.numberingPool.end().catch(() => undefined)]);
  }
}
