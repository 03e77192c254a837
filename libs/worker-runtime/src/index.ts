// @talao/worker-runtime: a worker app is a definition (queue, config loader, dependencies, handler controllers,
// periodic tasks) given to runWorkerApp in its main.ts; see worker-app.ts and docs/architecture.md.
export { type JobAttempt, JobContext, JobHandler } from './job-handler.js';
export { HandlerTable } from './handler-table.js';
export { type PeriodicTask } from './periodic-task.js';
export { WORKER_DEPENDENCIES } from './worker-module.js';
export {
  runWorkerApp,
  type RunningWorkerApp,
  startWorkerApp,
  type WorkerAppDefinition,
  type WorkerContext,
  type WorkerDependencies,
  type WorkerRuntimeConfig,
} from './worker-app.js';
