// One BullMQ Queue object per queue of the platform (QUEUE_NAMES), on the gateway's own Redis connection: what the
// operators' queue dashboard shows and what /metrics reports the depth of. The gateway sees every queue, so its
// /metrics alone gives the depth of all of them; each worker also reports its own.
import type { GatewayConfig } from '@talao/config';
import { watchQueueDepth } from '@talao/observability';
import { QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

export class PlatformQueues {
  readonly all: readonly Queue[];
  private readonly unwatch: Array<() => void>;

  constructor(config: GatewayConfig, redis: Redis) {
    const prefix = queueKeyPrefix(config.redisPrefix);
    this.all = Object.values(QUEUE_NAMES).map((name) => {
      const queue = new Queue(name, { connection: redis, prefix });
      queue.on('error', () => undefined); // Redis away: reported by GatewayResources' connection and readiness
      return queue;
    });
    this.unwatch = this.all.map((queue) => watchQueueDepth(queue));
  }

  async close(): Promise<void> {
    for (const stop of this.unwatch) stop();
    // The connection is GatewayResources'; a Queue on a given connection leaves it open. Bounded like the producers.
    await Promise.race([
      Promise.all(this.all.map((queue) => queue.close().catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
    ]);
  }
}
