// The gateway's side of one worker queue: a producer connection that fails fast, the queue, and a subscribed
// connection to the queue's job-outcome channel (to wait for a job's end). Every feature that enqueues (issuance,
// amendments, PDFs) owns one of these.
import type { GatewayConfig } from '@talao/config';
import { type Logger, queueTelemetry } from '@talao/observability';
import {
  bullJobOptions,
  jobOptionsFor,
  jobOutcomeChannel,
  JobOutcomeSubscription,
  type QueueName,
  queueKeyPrefix,
} from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

export class QueueProducer {
  readonly queue: Queue;
  readonly outcomes: JobOutcomeSubscription;
  private readonly producerRedis: Redis;
  /** A subscribed connection can do nothing else, hence its own. */
  private readonly outcomesRedis: Redis;
  /** Set by close(): from then on no connection reconnects. */
  private closing = false;

  constructor(gatewayConfig: GatewayConfig, name: QueueName, logger: Logger) {
    const prefix = queueKeyPrefix(gatewayConfig.redisPrefix);
    // ioredis reconnects forever by default. Once closing, a connection to an unreachable Redis must give up: its
    // retry timer and socket would keep the process alive (BullMQ's close() waits for a connection that never comes).
    const retryStrategy = (attempt: number) => (this.closing ? null : Math.min(attempt * 50, 2_000));
    // Producer: fail fast when Redis is away (the work is already in PostgreSQL; the workers' sweepers enqueue it).
    this.producerRedis = new Redis(gatewayConfig.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy,
    });
    this.producerRedis.on('error', () => undefined); // reported by GatewayResources' connection and readiness
    this.queue = new Queue(name, {
      connection: this.producerRedis,
      prefix,
      defaultJobOptions: bullJobOptions(jobOptionsFor(name)),
      // Tracing on: every job carries the W3C trace context of the request that enqueued it (undefined when off).
      telemetry: queueTelemetry(),
    });
    this.queue.on('error', () => undefined);
    // The end of every job arrives as one pub/sub message (job-outcomes.ts says why not BullMQ's QueueEvents). An
    // offline queue, so the subscription is sent once connected; ioredis re-subscribes after a reconnect.
    this.outcomesRedis = new Redis(gatewayConfig.redisUrl, { maxRetriesPerRequest: null, retryStrategy });
    this.outcomesRedis.on('error', (error: Error) => logger.debug({ error: error.message, queue: name }, 'job outcomes connection error'));
    this.outcomes = new JobOutcomeSubscription(this.outcomesRedis, jobOutcomeChannel(prefix, name));
  }

  async close(): Promise<void> {
    this.closing = true;
    // BullMQ's close() waits for a connection that may never come (Redis down): bounded, then every socket is dropped;
    // a connection still between reconnects ends at its next attempt (retryStrategy).
    await Promise.race([this.queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    this.producerRedis.disconnect();
    this.outcomesRedis.disconnect();
  }
}
