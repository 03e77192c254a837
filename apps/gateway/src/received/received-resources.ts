// What the received-invoice routes use besides GatewayResources: the `received` queue (producer only: the sync runs
// in apps/received-sync) and the received tables on a small pg pool. Nothing here reaches an authorizer.
import type { OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { createSqlPool, ReceivedDocumentsReads, ReceivedDocumentsRepository } from '@talao/persistence';
import { queueTelemetry } from '@talao/observability';
import { bullJobOptions, jobOptionsFor, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import type { GatewayResources } from '../gateway-resources.js';

export class ReceivedResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly sync: ReceivedDocumentsRepository;
  readonly reads: ReceivedDocumentsReads;
  private readonly pool: ReturnType<typeof createSqlPool>;

  constructor(
    config: GatewayConfig,
    readonly gateway: GatewayResources,
  ) {
    // The gateway's own connection (fail fast, no offline queue): a sync request is rare, and a Queue only sends
    // plain commands, so it needs no connection of its own. Redis away: the caller gets an error and may ask again.
    this.queue = new Queue(QUEUE_NAMES.received, {
      connection: gateway.redis,
      prefix: queueKeyPrefix(config.redisPrefix),
      telemetry: queueTelemetry(),
      defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.received)),
    });
    this.queue.on('error', () => undefined);
    this.pool = createSqlPool(config.databaseUrl, 4);
    this.pool.on('error', () => undefined);
    this.sync = new ReceivedDocumentsRepository(this.pool);
    this.reads = new ReceivedDocumentsReads(this.pool);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.race([this.queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    await this.pool.end().catch(() => undefined);
  }
}
