// What the invoice routes use besides GatewayResources: the issuance queue (producer) and its events (to wait for
// outcomes), the issuance repositories, the authorizer clients for consults, and the Idempotency-Key store.
import { readFileSync } from 'node:fs';
import type { OnApplicationShutdown } from '@nestjs/common';
import { MutualTlsAgentPool, NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import type { GatewayConfig } from '@talao/config';
import { CertificateCache, type CreateInvoiceDeps, OutcomeWaiter } from '@talao/issuance';
import type { Logger } from '@talao/observability';
import {
  CertificatesRepository, CertificateVault, createSqlPool, InvoicesRepository, NUMBERING_POOL_OPTIONS, pgPoolSqlRunner, SubmissionsRepository,
  UsageLedgerRepository,
} from '@talao/persistence';
import { bullJobOptions, jobOptionsFor, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { GatewayResources } from '../gateway-resources.js';
import { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { InvoicesConfig } from './invoices-config.js';
import { cachedIssuerSnapshots } from './issuer-snapshot-cache.js';

const DAY_MS = 24 * 3_600_000;

export class InvoicesResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly queueEvents: QueueEvents;
  readonly invoices: InvoicesRepository;
  readonly submissions: SubmissionsRepository;
  readonly certificates: CertificatesRepository;
  readonly createDeps: CreateInvoiceDeps;
  readonly waiter: OutcomeWaiter;
  readonly idempotency: IdempotencyStore;
  readonly sefaz: SefazClient;
  readonly nfse: NfseNacionalClient;
  readonly certificateCache = new CertificateCache();
  private readonly agents: MutualTlsAgentPool;
  private readonly producerRedis: Redis;
  /** Set when the application shuts down: from then on no Redis connection of this feature reconnects. */
  private shuttingDown = false;
  /** The connections BullMQ made for itself (duplicates of the events template). */
  private readonly bullmqConnections: Redis[] = [];
  /** The create path's statements (insert, outcome read) as prepared statements, beside Prisma's pool. */
  private readonly sqlPool: ReturnType<typeof createSqlPool>;
  /** Number reservations, committed asynchronously (NUMBERING_POOL_OPTIONS says why that is safe). */
  private readonly numberingPool: ReturnType<typeof createSqlPool>;

  constructor(gatewayConfig: GatewayConfig, readonly config: InvoicesConfig, gateway: GatewayResources, logger: Logger) {
    const prefix = queueKeyPrefix(gatewayConfig.redisPrefix);
    // ioredis reconnects forever by default. Once shutting down, a connection to an unreachable Redis must give up: its
    // retry timer and socket would keep the process alive (BullMQ's close() waits for a connection that never comes).
    const retryStrategy = (attempt: number) => (this.shuttingDown ? null : Math.min(attempt * 50, 2_000));
    // Producer: fail fast when Redis is away (the invoice is already in PostgreSQL; the issuer's sweeper enqueues it).
    this.producerRedis = new Redis(gatewayConfig.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000, retryStrategy });
    this.producerRedis.on('error', () => undefined); // reported by GatewayResources' connection and readiness
    this.queue = new Queue(QUEUE_NAMES.issuance, { connection: this.producerRedis, prefix, defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.issuance)) });
    this.queue.on('error', () => undefined);
    // Events need a blocking connection of their own (BullMQ requires maxRetriesPerRequest: null there). BullMQ
    // duplicates the client it is given for that and owns the copy (options, retryStrategy included), so the client
    // given is only a template that never connects (lazyConnect).
    const eventsTemplate = new Redis(gatewayConfig.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true, retryStrategy });
    const duplicate = eventsTemplate.duplicate.bind(eventsTemplate);
    // Remembered so shutdown drops them even while BullMQ still waits for them to connect (its close() would not).
    eventsTemplate.duplicate = (override) => {
      const copy = duplicate(override);
      copy.on('error', () => undefined); // reported through QueueEvents' own 'error' while it runs
      this.bullmqConnections.push(copy);
      return copy;
    };
    this.queueEvents = new QueueEvents(QUEUE_NAMES.issuance, { connection: eventsTemplate, prefix });
    this.queueEvents.on('error', (error: Error) => logger.debug({ error: error.message }, 'queue events connection error'));
    this.sqlPool = createSqlPool(gatewayConfig.databaseUrl, 10);
    this.numberingPool = createSqlPool(gatewayConfig.databaseUrl, 4, NUMBERING_POOL_OPTIONS);
    // An idle connection dropped by the server: the pool replaces it on the next query; nothing to crash over.
    for (const pool of [this.sqlPool, this.numberingPool]) pool.on('error', (error: Error) => logger.warn({ error: error.message }, 'postgres pool connection error'));
    this.invoices = new InvoicesRepository(gateway.prisma, pgPoolSqlRunner(this.sqlPool), pgPoolSqlRunner(this.numberingPool));
    this.submissions = new SubmissionsRepository(gateway.prisma);
    this.certificates = new CertificatesRepository(gateway.prisma, new CertificateVault(gatewayConfig.certificateEncryptionKey));
    const snapshots = cachedIssuerSnapshots(gateway.companies, this.certificates, config.issuerCacheTtlMs);
    gateway.onConfigurationChanged(() => snapshots.forgetAll());
    this.createDeps = {
      companies: snapshots.companies,
      certificates: snapshots.certificates,
      invoices: this.invoices,
      usage: new UsageLedgerRepository(gateway.prisma),
      queue: this.queue,
      technicalResponsible: config.technicalResponsible,
      logger: logger.child({ component: 'issuance' }),
    };
    this.waiter = new OutcomeWaiter(this.invoices, this.queueEvents);
    this.idempotency = new IdempotencyStore(gateway.prisma, { retentionMs: DAY_MS, lockTtlMs: config.idempotencyLockTtlMs });
    this.agents = new MutualTlsAgentPool(config.authorizerCaBundleFile ? { caBundlePem: readFileSync(config.authorizerCaBundleFile, 'utf8') } : {});
    const timeouts = { connectMs: 3_000, readMs: config.authorizerReadTimeoutMs };
    this.sefaz = new SefazClient({ agents: this.agents, baseUrlOverrides: config.authorizerBaseUrls, timeouts });
    this.nfse = new NfseNacionalClient({ agents: this.agents, baseUrlOverrides: config.authorizerBaseUrls, timeouts });
  }

  async onApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    // BullMQ's close() waits for a connection that may never come (Redis down): bounded, then every socket is dropped,
    // BullMQ's own copies included; a connection still between reconnects ends at its next attempt (retryStrategy).
    const closed = Promise.allSettled([this.queueEvents.close(), this.queue.close()]);
    const settled = await Promise.race([closed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_000).unref())]);
    if (!settled) this.queueEvents.disconnect().catch(() => undefined); // not awaited: it too waits for Redis
    this.producerRedis.disconnect();
    for (const connection of this.bullmqConnections) connection.disconnect();
    this.agents.destroy();
    await Promise.all([this.sqlPool.end().catch(() => undefined), this.numberingPool.end().catch(() => undefined)]);
  }
}
