// What the relay, the delivery job and the sweep need: the repositories, the deliverer, the webhooks queue, settings.
import type { Logger } from '@talao/observability';
import type { WebhookDeliveriesRepository, WebhookEndpointsRepository } from '@talao/persistence';
import type { JobQueues } from '@talao/queue-contracts';
import type { WebhookDeliverer } from '../delivery/deliverer.js';
import type { EndpointLimiter } from './endpoint-limiter.js';

export interface DispatchSettings {
  timeoutMs: number;
  retryBaseDelayMs: number;
  relayBatchSize: number;
  sweepGraceMs: number;
  /** Deliveries re-driven per sweep at most. */
  sweepBatchSize: number;
}

export interface DispatcherDeps {
  deliveries: WebhookDeliveriesRepository;
  endpoints: WebhookEndpointsRepository;
  deliverer: WebhookDeliverer;
  queues: JobQueues;
  limiter: EndpointLimiter;
  logger: Logger;
  settings: DispatchSettings;
  /** For the retry schedule's jitter (tests pin it). */
  random?: () => number;
}
