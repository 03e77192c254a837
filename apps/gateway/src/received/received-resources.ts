// What the received-invoice routes use besides GatewayResources: the `received` queue (producer only: syncs and
// manifestations run in apps/received-sync) with its job outcomes (a manifestation waits for its decision), and the
// received tables on a small pg pool. Nothing here reaches an authorizer. Settings:
//   MANIFESTATION_WAIT_MS   how long POST …/manifestation waits for the authorizer's decision before 202 (10000)
import type { OnApplicationShutdown } from '@nestjs/common';
import { AmendmentWaiter } from '@talao/amendments/create';
import type { GatewayConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import { createSqlPool, ReceivedDocumentsReads, ReceivedDocumentsRepository, ReceivedManifestationsRepository } from '@talao/persistence';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import type { ManifestationRequestDeps } from '@talao/received-invoices/manifest';
import type { Queue } from 'bullmq';
import type { GatewayResources } from '../gateway-resources.js';
import { decisionWaitMs } from '../queues/decision-wait.js';
import { QueueProducer } from '../queues/queue-producer.js';

export class ReceivedResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly sync: ReceivedDocumentsRepository;
  readonly reads: ReceivedDocumentsReads;
  readonly manifestations: ReceivedManifestationsRepository;
  readonly manifestationDeps: ManifestationRequestDeps;
  /** Waits on the received queue's outcome channel for a `manifest` job (jobId = the row's id), PostgreSQL the truth. */
  readonly waiter: AmendmentWaiter;
  readonly waitMs = decisionWaitMs('MANIFESTATION_WAIT_MS');
  private readonly producer: QueueProducer;
  private readonly pool: ReturnType<typeof createSqlPool>;

  constructor(
    config: GatewayConfig,
    readonly gateway: GatewayResources,
    logger: Logger,
  ) {
    // Redis away: the producer fails fast; a sync request gets an error and may ask again, a manifestation row is
    // already stored and received-sync's re-drive enqueues it.
    this.producer = new QueueProducer(config, QUEUE_NAMES.received, logger);
    this.queue = this.producer.queue;
    this.pool = createSqlPool(config.databaseUrl, 4);
    this.pool.on('error', () => undefined);
    this.sync = new ReceivedDocumentsRepository(this.pool);
    this.reads = new ReceivedDocumentsReads(this.pool);
    this.manifestations = new ReceivedManifestationsRepository(this.pool);
    this.manifestationDeps = { manifestations: this.manifestations, queue: this.queue };
    // Only its waitForRecord is used, with the manifestation's own read: it never looks an amendment up.
    this.waiter = new AmendmentWaiter({ findById: () => Promise.resolve(null) }, this.producer.outcomes);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
    await this.pool.end().catch(() => undefined);
  }
}
