// @talao/worker-runtime: a worker app is a definition (queue, config loader, dependencies, handler controllers,
// periodic tasks) given to runWorkerApp in its main.ts; see worker-app.ts.
export { BULLMQ_TRANSPORT, type JobAttempt, JobContext, JobHandler, type JobHandlerMethod } from './job-handler.js';
export { assertHandlersCover } from './handler-check.js';
export { BullMqTransport, type BullMqTransportOptions } from './bullmq-transport.js';
export { type PeriodicTask } from './periodic-task.js';
export { WORKER_DEPENDENCIES } from './worker-module.js';
export {
  runWorkerApp, type RunningWorkerApp, startWorkerApp, type WorkerAppDefinition, type WorkerContext, type WorkerDependencies, type WorkerRuntimeConfig,
} from './worker-app.js';
