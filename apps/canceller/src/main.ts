// The canceller: the `amendments` queue's worker (cancellation and correction letter events). Everything else —
// config check, health port, shutdown, exit codes — is the worker runtime's.
import { createAmendmentWorkerDependencies } from '@talao/amendments';
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
});
