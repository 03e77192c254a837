// The issuer's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import {
  authorizersConfig,
  type Environment,
  loadConfig,
  statementBatchingConfig,
  sweeperConfig,
  technicalResponsibleConfig,
  workerAppFragments,
} from '@talao/config';

export function loadIssuerConfig(env: Environment = process.env) {
  return loadConfig(
    {
      ...workerAppFragments('ISSUER', { concurrency: 8, healthPort: 3100 }),
      authorizers: authorizersConfig,
      technicalResponsible: technicalResponsibleConfig,
      // The issue job's snapshot read, submission begin and final statement, shared by concurrent jobs.
      batching: statementBatchingConfig('ISSUER_DB_BATCH'),
      sweeper: sweeperConfig,
    },
    env,
  );
}
