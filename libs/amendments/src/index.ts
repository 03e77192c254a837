// @talao/amendments: cancellation and the NF-e correction letter. The request side is `@talao/amendments/create`
// (the gateway's); this entry adds the `amend` job and the canceller's wiring.
export * from './create/index.js';
export type { AmendDeps, AmendLogger } from './amend/amend-context.js';
export { runAmendJob } from './amend/run-amend-job.js';
export { type InvalidateDeps, runInvalidateJob } from './amend/run-invalidate-job.js';
export {
  type AmendmentWorkerDependencies,
  type AmendmentWorkerSettings,
  createAmendmentWorkerDependencies,
} from './worker-dependencies.js';
export { sweepPendingAmendments, type SweepPendingDeps, type SweepPendingSettings } from './sweep/sweep-pending.js';
