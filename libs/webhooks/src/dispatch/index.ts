// The dispatcher side of webhooks: the outbox relay, the delivery job, the sweep and their wiring.
export { type DispatcherDeps, type DispatchSettings } from './dispatcher-deps.js';
export { createWebhookDispatcherDependencies, type DispatcherDependencies, type DispatcherSettings } from './dispatcher-dependencies.js';
export { EndpointLimiter } from './endpoint-limiter.js';
export { runDeliverJob } from './deliver-job.js';
export { planDeliveries, relayOutbox } from './relay.js';
export { sweepDeliveries } from './sweep-deliveries.js';
