// received-sync: the `received` queue's worker (distribution sync per company and environment) and the periodic
// reconcile of one job scheduler per company and environment. Everything else is the worker runtime's.
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { createReceivedWorkerDependencies, reconcileSchedules } from '@talao/received-invoices';
import { runWorkerApp } from '@talao/worker-runtime';
import { reportCapStates } from './cap-state-metrics.js';
import { loadReceivedSyncConfig } from './config.js';
import { ReceivedHandlers } from './received-handlers.js';

runWorkerApp({
  name: 'received-sync',
  queue: QUEUE_NAMES.received,
  loadConfig: () => loadReceivedSyncConfig(),
  dependencies: (config, context) => {
    const dependencies = createReceivedWorkerDependencies(config, context);
    reportCapStates(dependencies.received);
    return dependencies;
  },
  handlers: [ReceivedHandlers],
  periodicTasks: (dependencies, config) =>
    config.schedule.enabled
      ? [
          {
            name: 'reconcile-schedules',
            intervalMs: config.schedule.reconcileIntervalMs,
            run: () => reconcileSchedules(dependencies.schedulerQueue, dependencies.received, { intervalMs: config.schedule.intervalMs }),
          },
        ]
      : [],
});
