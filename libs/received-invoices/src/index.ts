// @talao/received-invoices: distribution sync (NF-e, NFS-e), the per-company schedules and the recipient's manifestation
// (the `manifest` job) of the received-sync worker. The request side of manifestation is `@talao/received-invoices/manifest`.
export { HOUR_MS } from './distribution-sync.js';
export { type SyncReceivedDeps, syncReceivedNfe } from './sync-received-nfe.js';
export { type SyncReceivedNfseDeps, syncReceivedNfse } from './sync-received-nfse.js';
export { syncReceived, type SyncReceivedJobDeps } from './sync-received.js';
export { nfseRecordOf } from './nfse-distribution-records.js';
export { type DistributedRecord, recordOf } from './nfe-distribution-records.js';
export { offsetOf, reconcileSchedules, schedulerIdOf, type SchedulerQueue, type SchedulingSource } from './schedules.js';
export { createReceivedWorkerDependencies, type ReceivedWorkerDependencies, type ReceivedWorkerSettings } from './worker-dependencies.js';
export { type ManifestDeps, runManifestJob } from './manifest-received.js';
export { redrivePendingManifestations } from './redrive-manifestations.js';
