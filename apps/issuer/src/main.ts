// The issuer: the `issuance` queue's worker (build, sign, validate, transmit, reconcile) and the stuck-invoice
// sweeper. Everything else — config check, health port, shutdown, exit codes — is the worker runtime's.
import { createIssuanceWorkerDependencies, sweepStuckInvoices } from '@talao/issuance';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { runWorkerApp } from '@talao/worker-runtime';
import { loadIssuerConfig } from './config.js';
import { IssuanceHandlers } from './issuance-handlers.js';

runWorkerApp({
  name: 'issuer',
  queue: QUEUE_NAMES.issuance,
  loadConfig: () => loadIssuerConfig(),
  dependencies: createIssuanceWorkerDependencies,
  handlers: [IssuanceHandlers],
  periodicTasks: (dependencies, config) => [
    { name: 'sweep', intervalMs: config.sweeper.intervalMs, run: () => sweepStuckInvoices(dependencies.sweep, config.sweeper) },
  ],
});
