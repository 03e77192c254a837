// What GET /invoices/{access_key}/pdf uses besides the invoices feature's resources: the pdf queue (producer), its job
// outcomes (to wait for a render), and the stored PDFs.
import type { OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import { DocumentPdfsRepository } from '@talao/persistence';
import {
  bullJobOptions,
  jobOptionsFor,
  jobOutcomeChannel,
  JobOutcomeSubscription,
  QUEUE_NAMES,
  queueKeyPrefix,
} from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { GatewayResources } from '../gateway-resources.js';
import { PdfWaiter } from './pdf-waiter.js';
import type { PdfsConfig } from './pdfs-config.js';

export class PdfsResources implements OnApplicationShutdown {
  readonly pdfs: DocumentPdfsRepository;
  readonly waiter: PdfWaiter;
  private readonly queue: Queue;
  private readonly producerRedis: Redis;
  private readonly outcomesRedis: Redis;
  private shuttingDown = false;

  constructor(
    gatewayConfig: GatewayConfig,
    readonly config: PdfsConfig,
    gateway: GatewayResources,
    logger: Logger,
  ) {
    const prefix = queueKeyPrefix(gatewayConfig.redisPrefix);
    // As the invoices feature's connections (invoices-resources.ts): fail fast while running, give up once shutting down.
    const retryStrategy = (attempt: number) => (this.shuttingDown ? null : Math.min(attempt * 50, 2_000));
    this.producerRedis = new Redis(gatewayConfig.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy,
    });
    this.producerRedis.on('error', () => undefined); // reported by GatewayResources' connection and readiness
    this.queue = new Queue(QUEUE_NAMES.pdf, {
      connection: this.producerRedis,
      prefix,
      defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.pdf)),
    });
    this.queue.on('error', () => undefined);
    this.outcomesRedis = new Redis(gatewayConfig.redisUrl, { maxRetriesPerRequest: null, retryStrategy });
    this.outcomesRedis.on('error', (error: Error) => logger.debug({ error: error.message }, 'pdf outcomes connection error'));
    const outcomes = new JobOutcomeSubscription(this.outcomesRedis, jobOutcomeChannel(prefix, QUEUE_NAMES.pdf));
    outcomes.setMaxListeners(0); // one listener per request waiting for a render
    this.waiter = new PdfWaiter(this.queue, outcomes);
    this.pdfs = new DocumentPdfsRepository(gateway.prisma);
  }

  async onApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.race([this.queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    this.producerRedis.disconnect();
    this.outcomesRedis.disconnect();
  }
}
