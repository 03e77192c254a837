// What the amendment routes use besides the invoices feature's resources: the amendments queue (producer) and its job
// outcomes (to wait for them), the amendments repository and the waiter. Settings:
//   AMENDMENT_WAIT_MS   how long cancel / correction wait for the authorizer's outcome before 202 (10000)
import type { OnApplicationShutdown } from '@nestjs/common';
import { AmendmentWaiter, type AmendmentRequestDeps, type InvalidationRequestDeps } from '@talao/amendments/create';
import { type GatewayConfig, integer, loadConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import type { AmendmentsRepository, InvalidationsRepository } from '@talao/persistence';
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
import { z } from 'zod';
import type { GatewayResources } from '../gateway-resources.js';
import type { InvoicesResources } from '../invoices/invoices-resources.js';

const amendmentsConfig = z.object({ AMENDMENT_WAIT_MS: integer(10_000, 0) }).transform((env) => ({ waitMs: env.AMENDMENT_WAIT_MS }));

export class AmendmentsResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly amendments: AmendmentsRepository;
  readonly waiter: AmendmentWaiter;
  readonly requestDeps: AmendmentRequestDeps;
  readonly invalidations: InvalidationsRepository;
  readonly invalidationDeps: InvalidationRequestDeps;
  readonly waitMs: number;
  private readonly producerRedis: Redis;
  private readonly outcomesRedis: Redis;
  private shuttingDown = false;

  constructor(
    gatewayConfig: GatewayConfig,
    gateway: GatewayResources,
    readonly invoices: InvoicesResources,
    logger: Logger,
  ) {
    this.waitMs = loadConfig({ amendments: amendmentsConfig }).amendments.waitMs;
    const prefix = queueKeyPrefix(gatewayConfig.redisPrefix);
    // As the invoices feature's connections: fail fast while producing, give up reconnecting once shutting down.
    const retryStrategy = (attempt: number) => (this.shuttingDown ? null : Math.min(attempt * 50, 2_000));
    this.producerRedis = new Redis(gatewayConfig.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy,
    });
    this.producerRedis.on('error', () => undefined);
    this.queue = new Queue(QUEUE_NAMES.amendments, {
      connection: this.producerRedis,
      prefix,
      defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.amendments)),
    });
    this.queue.on('error', () => undefined);
    this.outcomesRedis = new Redis(gatewayConfig.redisUrl, { maxRetriesPerRequest: null, retryStrategy });
    this.outcomesRedis.on('error', (error: Error) => logger.debug({ error: error.message }, 'amendment outcomes connection error'));
    const outcomes = new JobOutcomeSubscription(this.outcomesRedis, jobOutcomeChannel(prefix, QUEUE_NAMES.amendments));
    this.amendments = invoices.amendments;
    this.waiter = new AmendmentWaiter(this.amendments, outcomes);
    this.requestDeps = {
      invoices: invoices.invoices,
      companies: gateway.companies,
      amendments: this.amendments,
      queue: this.queue,
    };
    this.invalidations = invoices.invalidations;
    this.invalidationDeps = { invalidations: this.invalidations, queue: this.queue };
  }

  async onApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.race([this.queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    this.producerRedis.disconnect();
    this.outcomesRedis.disconnect();
  }
}
