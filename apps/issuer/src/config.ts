// The issuer's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import {
  authorizersConfig,
  statementBatchingConfig,
  sweeperConfig,
  technicalResponsibleConfig,
  workerAppConfigLoader,
} from '@talao/config';

export const loadIssuerConfig = workerAppConfigLoader(
  'ISSUER',
  { concurrency: 8, healthPort: 3100 },
  {
    authorizers: authorizersConfig,
    technicalResponsible: technicalResponsibleConfig,
    // The issue job's snapshot read, submission begin and final statement, shared by concurrent jobs.
    batching: statementBatchingConfig('ISSUER_DB_BATCH'),
    sweeper: sweeperConfig,
  },
);
