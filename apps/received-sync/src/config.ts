// The received-sync worker's environment: the fragments of @talao/config it needs, validated at boot.
import { authorizersConfig, receivedSyncConfig, workerAppConfigLoader } from '@talao/config';

export const loadReceivedSyncConfig = workerAppConfigLoader(
  'RECEIVED_SYNC',
  // Syncs wait on the authority most of the time; a few at once per worker.
  { concurrency: 4, healthPort: 3200 },
  { authorizers: authorizersConfig, schedule: receivedSyncConfig },
);
