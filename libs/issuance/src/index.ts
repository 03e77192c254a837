// @talao/issuance: the issuance use cases, plain TypeScript over repositories, queues and the authorizer exchange.
//   the create side (createInvoice, reissueInvoice, OutcomeWaiter): see ./create/index.ts, also `@talao/issuance/create`
//   issueInvoice(deps, invoiceId, { finalAttempt })                        → IssueResult (the worker's job)
//   sweepStuckInvoices(deps, { staleAfterMs, batchSize })                  → SweepReport
export * from './create/index.js';
// IssueDeps holds one: the worker's cache of parsed certificates (libs/authorizer-exchange).
export { CertificateCache } from '@talao/authorizer-exchange';
export {
  type DecidedState,
  type IssueCertificatesPort,
  type IssueDeps,
  type IssueInvoicesPort,
  type IssueOptions,
  type IssueResult,
  type IssueSnapshotView,
} from './issue/issue-context.js';
export { issueInvoice } from './issue/issue-invoice.js';
export { runIssueJob } from './issue/issue-job.js';
export { sweepStuckInvoices, type SweepDeps, type SweepOptions, type SweepReport } from './sweep/sweep-stuck-invoices.js';
export {
  createIssuanceWorkerDependencies,
  type IssuanceWorkerContext,
  type IssuanceWorkerDependencies,
  type IssuanceWorkerSettings,
} from './worker-dependencies.js';
