// The webhook dispatcher's environment: the fragments of @talao/config it needs, validated at boot. The certificate
// key opens the endpoints' sealed signing secrets.
import { type Environment, loadConfig, webhookDispatchConfig, webhookTargetConfig, workerAppFragments } from '@talao/config';

export function loadWebhookDispatcherConfig(env: Environment = process.env) {
  return loadConfig(
    {
      // Attempts are I/O: many at once per process; one endpoint holds at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT.
      ...workerAppFragments('WEBHOOK_DISPATCHER', { concurrency: 64, healthPort: 3200 }),
      webhookTargets: webhookTargetConfig,
      webhooks: webhookDispatchConfig,
    },
    env,
  );
}
