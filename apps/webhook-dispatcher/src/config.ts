// The webhook dispatcher's environment: the fragments of @talao/config it needs, validated at boot. The certificate
// key opens the endpoints' sealed signing secrets.
import { webhookDispatchConfig, webhookTargetConfig, workerAppConfigLoader } from '@talao/config';

export const loadWebhookDispatcherConfig = workerAppConfigLoader(
  'WEBHOOK_DISPATCHER',
  // Attempts are I/O: many at once per process; one endpoint holds at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT.
  // 256 rather than 64: a job mostly waits (its claim's and record's batched statements, the POST), and the more
  // run at once the larger those batches, so the less PostgreSQL CPU per delivery (bench:webhooks; the figures in
  // docs/architecture.md), for no measurable memory.
  { concurrency: 256, healthPort: 3200 },
  { webhookTargets: webhookTargetConfig, webhooks: webhookDispatchConfig },
);
