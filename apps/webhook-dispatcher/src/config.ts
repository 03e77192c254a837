// The webhook dispatcher's environment: the fragments of @talao/config it needs, validated at boot. The certificate
// key opens the endpoints' sealed signing secrets.
import {
  certificatesConfig,
  databaseConfig,
  type Environment,
  loadConfig,
  loggingConfig,
  redisConfig,
  webhookDispatchConfig,
  webhookTargetConfig,
  workerConfig,
} from '@talao/config';

export function loadWebhookDispatcherConfig(env: Environment = process.env) {
  return loadConfig(
    {
      database: databaseConfig,
      redis: redisConfig,
      logging: loggingConfig,
      certificates: certificatesConfig,
      // Attempts are I/O: many at once per process; one endpoint holds at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT.
      worker: workerConfig('WEBHOOK_DISPATCHER', { concurrency: 64, healthPort: 3200 }),
      webhookTargets: webhookTargetConfig,
      webhooks: webhookDispatchConfig,
    },
    env,
  );
}
