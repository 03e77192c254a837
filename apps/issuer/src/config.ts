// The issuer's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import {
  authorizersConfig,
  certificatesConfig,
  databaseConfig,
  type Environment,
  loadConfig,
  loggingConfig,
  redisConfig,
  statementBatchingConfig,
  sweeperConfig,
  technicalResponsibleConfig,
  workerConfig,
} from '@talao/config';

export function loadIssuerConfig(env: Environment = process.env) {
  return loadConfig(
    {
      database: databaseConfig,
      redis: redisConfig,
      logging: loggingConfig,
      certificates: certificatesConfig,
      authorizers: authorizersConfig,
      technicalResponsible: technicalResponsibleConfig,
      worker: workerConfig('ISSUER', { concurrency: 8, healthPort: 3100 }),
      // The issue job's snapshot read, submission begin and final statement, shared by concurrent jobs.
      batching: statementBatchingConfig('ISSUER_DB_BATCH'),
      sweeper: sweeperConfig,
    },
    env,
  );
}
