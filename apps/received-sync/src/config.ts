// The received-sync worker's environment: the fragments of @talao/config it needs, validated at boot.
import {
  authorizersConfig,
  certificatesConfig,
  databaseConfig,
  type Environment,
  loadConfig,
  loggingConfig,
  receivedSyncConfig,
  redisConfig,
  workerConfig,
} from '@talao/config';

export function loadReceivedSyncConfig(env: Environment = process.env) {
  return loadConfig(
    {
      database: databaseConfig,
      redis: redisConfig,
      logging: loggingConfig,
      certificates: certificatesConfig,
      authorizers: authorizersConfig,
      // Syncs wait on the authority most of the time; a few at once per worker.
      worker: workerConfig('RECEIVED_SYNC', { concurrency: 4, healthPort: 3200 }),
      schedule: receivedSyncConfig,
    },
    env,
  );
}
