// What the amendment routes use besides the invoices feature's resources: the amendments queue (producer) and its job
// outcomes (to wait for them), the amendments repository and the waiter. Settings:
//   AMENDMENT_WAIT_MS   how long cancel / correction wait for the authorizer's outcome before 202 (10000)
import type { OnApplicationShutdown } from '@nestjs/common';
import { AmendmentWaiter, type AmendmentRequestDeps, type InvalidationRequestDeps } from '@talao/amendments/create';
import type { GatewayConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import type { AmendmentsRepository, InvalidationsRepository } from '@talao/persistence';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import type { Queue } from 'bullmq';
import type { GatewayResources } from '../gateway-resources.js';
import { decisionWaitMs } from '../queues/decision-wait.js';
import { QueueProducer } from '../queues/queue-producer.js';
import type { InvoicesResources } from '../invoices/invoices-resources.js';

export class AmendmentsResources implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly amendments: AmendmentsRepository;
  readonly waiter: AmendmentWaiter;
  readonly requestDeps: AmendmentRequestDeps;
  readonly invalidations: InvalidationsRepository;
  readonly invalidationDeps: InvalidationRequestDeps;
  readonly waitMs = decisionWaitMs('AMENDMENT_WAIT_MS');
  private readonly producer: QueueProducer;

  constructor(
    gatewayConfig: GatewayConfig,
    gateway: GatewayResources,
    readonly invoices: InvoicesResources,
    logger: Logger,
  ) {
    this.producer = new QueueProducer(gatewayConfig, QUEUE_NAMES.amendments, logger);
    this.queue = this.producer.queue;
    const outcomes = this.producer.outcomes;
    this.amendments = invoices.amendments;
    this.waiter = new AmendmentWaiter(this.amendments, outcomes);
    this.requestDeps = { amendments: this.amendments, queue: this.queue };
    this.invalidations = invoices.invalidations;
    this.invalidationDeps = { invalidations: this.invalidations, queue: this.queue };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
  }
}
