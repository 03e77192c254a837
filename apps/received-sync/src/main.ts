// received-sync: the `received` queue's worker (distribution sync per company and environment, the recipient's
// manifestations) with two periodic tasks: the reconcile of one job scheduler per company and environment, and the
// re-drive of manifestations left pending without a job. Everything else is the worker runtime's.
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { createReceivedWorkerDependencies, reconcileSchedules, redrivePendingManifestations } from '@talao/received-invoices';
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
  periodicTasks: (dependencies, config) => [
    // A manifestation pending this long has lost its job (its own retries wait 30 s and 60 s): enqueue it again.
    {
      name: 'redrive-manifestations',
      intervalMs: config.schedule.redriveIntervalMs,
      run: () =>
        redrivePendingManifestations(dependencies.manifestations, dependencies.schedulerQueue, {
          staleAfterMs: config.schedule.redriveAfterMs,
        }),
    },
    ...(config.schedule.enabled
      ? [
          {
            name: 'reconcile-schedules',
            intervalMs: config.schedule.reconcileIntervalMs,
            run: () => reconcileSchedules(dependencies.schedulerQueue, dependencies.received, { intervalMs: config.schedule.intervalMs }),
          },
        ]
      : []),
  ],
});
