// The canceller's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import {
  authorizersConfig,
  certificatesConfig,
  databaseConfig,
  type Environment,
  loadConfig,
  loggingConfig,
  redisConfig,
  workerConfig,
} from '@talao/config';

export function loadCancellerConfig(env: Environment = process.env) {
  return loadConfig(
    {
      database: databaseConfig,
      redis: redisConfig,
      logging: loggingConfig,
      certificates: certificatesConfig,
      authorizers: authorizersConfig,
      worker: workerConfig('CANCELLER', { concurrency: 8, healthPort: 3110 }),
    },
    env,
  );
}
