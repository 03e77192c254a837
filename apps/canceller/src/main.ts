// The canceller: the `amendments` queue's worker (cancellation and correction letter events, numbering invalidation)
// and the sweeper of amendments left pending without a job. Everything else —
// config check, health port, shutdown, exit codes — is the worker runtime's.
import { createAmendmentWorkerDependencies, sweepPendingAmendments } from '@talao/amendments';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { runWorkerApp } from '@talao/worker-runtime';
import { AmendmentHandlers } from './amendment-handlers.js';
import { loadCancellerConfig } from './config.js';

runWorkerApp({
  name: 'canceller',
  queue: QUEUE_NAMES.amendments,
  loadConfig: () => loadCancellerConfig(),
  dependencies: (config, context) => createAmendmentWorkerDependencies(config, context),
  handlers: [AmendmentHandlers],
  periodicTasks: (dependencies, config) => [
    { name: 'sweep', intervalMs: config.sweep.intervalMs, run: () => sweepPendingAmendments(dependencies.sweep, config.sweep) },
  ],
});
