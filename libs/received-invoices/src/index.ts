// @talao/received-invoices: distribution sync (NF-e) and the per-company schedules of the received-sync worker.
export { HOUR_MS, type SyncReceivedDeps, syncReceivedNfe } from './sync-received-nfe.js';
export { type SyncReceivedNfseDeps, syncReceivedNfse } from './sync-received-nfse.js';
export { syncReceived, type SyncReceivedJobDeps } from './sync-received.js';
export { nfseRecordOf } from './nfse-distribution-records.js';
export { type DistributedRecord, recordOf } from './nfe-distribution-records.js';
export { offsetOf, reconcileSchedules, schedulerIdOf, type SchedulerQueue, type SchedulingSource } from './schedules.js';
export { createReceivedWorkerDependencies, type ReceivedWorkerDependencies, type ReceivedWorkerSettings } from './worker-dependencies.js';
