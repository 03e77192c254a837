// What the received-invoice routes use besides GatewayResources: the `received` queue (producer only: the sync runs
// in apps/received-sync) and the received tables on a small pg pool. Nothing here reaches an authorizer.
import type { OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { createSqlPool, ReceivedDocumentsReads, ReceivedDocumentsRepository } from '@talao/persistence';
import { bullJobOptions, jobOptionsFor, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { GatewayResources } from '../gateway-resources.js';

export class ReceivedResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly sync: ReceivedDocumentsRepository;
  readonly reads: ReceivedDocumentsReads;
  private readonly redis: Redis;
  private readonly pool: ReturnType<typeof createSqlPool>;
  private shuttingDown = false;

  constructor(
    config: GatewayConfig,
    readonly gateway: GatewayResources,
  ) {
    // Fail fast when Redis is away: the caller is told 503 and may ask again; nothing was written.
    this.redis = new Redis(config.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy: (attempt: number) => (this.shuttingDown ? null : Math.min(attempt * 50, 2_000)),
    });
    this.redis.on('error', () => undefined); // reported by GatewayResources' connection and readiness
    this.queue = new Queue(QUEUE_NAMES.received, {
      connection: this.redis,
      prefix: queueKeyPrefix(config.redisPrefix),
      defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.received)),
    });
    this.queue.on('error', () => undefined);
    this.pool = createSqlPool(config.databaseUrl, 4);
    this.pool.on('error', () => undefined);
    this.sync = new ReceivedDocumentsRepository(this.pool);
    this.reads = new ReceivedDocumentsReads(this.pool);
  }

  async onApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.race([this.queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    this.redis.disconnect();
    await this.pool.end().catch(() => undefined);
  }
}
