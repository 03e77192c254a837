// The webhook dispatcher: the `webhooks` queue's worker (one signed attempt per job), the outbox relay (fan-out into
// deliveries) and the sweep that re-drives lost deliveries from PostgreSQL. Config check, health port, shutdown and
// exit codes are the worker runtime's.
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { createWebhookDispatcherDependencies, relayOutbox, sweepDeliveries } from '@talao/webhooks';
import { runWorkerApp } from '@talao/worker-runtime';
import { loadWebhookDispatcherConfig } from './config.js';
import { WebhookHandlers } from './webhook-handlers.js';

runWorkerApp({
  name: 'webhook-dispatcher',
  queue: QUEUE_NAMES.webhooks,
  loadConfig: () => loadWebhookDispatcherConfig(),
  dependencies: (config, { queue, logger }) => createWebhookDispatcherDependencies(config, { queue, logger }),
  handlers: [WebhookHandlers],
  // Nothing waits on a delivery job's end (the delivery log in PostgreSQL is the record): no PUBLISH per delivery.
  publishJobOutcomes: false,
  periodicTasks: (dependencies, config) => [
    { name: 'relay', intervalMs: config.webhooks.relayIntervalMs, run: () => relayOutbox(dependencies) },
    { name: 'sweep', intervalMs: config.webhooks.sweepIntervalMs, run: () => sweepDeliveries(dependencies) },
  ],
});
