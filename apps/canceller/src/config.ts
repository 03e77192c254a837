// The canceller's environment: the fragments of @talao/config it needs, validated at boot (every bad variable named).
import { z } from 'zod';
import { authorizersConfig, integer, workerAppConfigLoader } from '@talao/config';

// Amendments (and ranges) still pending this long after filing, with no live job, are enqueued again.
const sweepConfig = z
  .object({ CANCELLER_SWEEP_INTERVAL_MS: integer(10_000, 100), CANCELLER_SWEEP_STALE_AFTER_MS: integer(60_000, 0) })
  .transform((env) => ({ intervalMs: env.CANCELLER_SWEEP_INTERVAL_MS, staleAfterMs: env.CANCELLER_SWEEP_STALE_AFTER_MS }));

export const loadCancellerConfig = workerAppConfigLoader(
  'CANCELLER',
  { concurrency: 8, healthPort: 3110 },
  { authorizers: authorizersConfig, sweep: sweepConfig },
);
