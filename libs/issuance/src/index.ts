// @talao/issuance: the issuance use cases, plain TypeScript over repositories, queues and authorizer clients.
//   createInvoice(deps, { companyId, environment, body })                → { invoice, enqueued }
//   reissueInvoice(deps, { companyId, environment, invoiceId })          → { invoice, enqueued }
//   issueInvoice(deps, invoiceId, { finalAttempt })                        → IssueResult
//   runIssueJob(deps, { invoiceId }, { final })                            → the `issue` job's result, or RetryLaterError
//   createIssuanceWorkerDependencies(settings, { queue, logger })         → every use case's dependencies, wired once
//   sweepStuckInvoices(deps, { staleAfterMs, batchSize })                  → SweepReport
//   new OutcomeWaiter(invoices, jobOutcomes).waitForFinal(invoiceId, ms)    → the invoice when final, or still processing
// Failures of the create side are IssuanceError subclasses with a `kind` for the delivery to map.
export * from './errors.js';
export { assertSigningImplemented, UNSIGNABLE_DOCUMENT_TYPES } from './create/document-support.js';
export type * from './ports.js';
export {
  createInvoice, type CreateInvoiceCommand, type CreateInvoiceDeps, type CreatedInvoice, type CreateSideCertificatesPort,
} from './create/create-invoice.js';
export { reissueInvoice, type ReissueCommand } from './create/reissue-invoice.js';
export { issuerProfileOf, issuingProblems, profileProblems } from './create/issuer-configuration.js';
export { billingPeriod } from './create/production-quota.js';
export { type InvoiceOutcome, type InvoiceReader, type JobEndEvents, OutcomeWaiter } from './create/outcome-waiter.js';
export { requestBodyOf, validatedRequestOf, type StoredRequest } from './create/stored-request.js';
export { CertificateCache } from './issue/certificate-cache.js';
export { type IssueSubmissionsPort, type PendingAnswer } from './issue/answer-buffer.js';
export {
  type DecidedState, type IssueCertificatesPort, type IssueDeps, type IssueInvoicesPort, type IssueOptions, type IssueResult, type IssueSnapshotView,
} from './issue/issue-context.js';
export { issueInvoice } from './issue/issue-invoice.js';
export { runIssueJob } from './issue/issue-job.js';
export { NFE_AUTHORIZATION, NFE_CONSULT } from './issue/nfe-calls.js';
export { NFSE_CONSULT, NFSE_EMISSION, NFSE_FETCH } from './issue/nfse-calls.js';
export { sweepStuckInvoices, type SweepDeps, type SweepOptions, type SweepReport } from './sweep/sweep-stuck-invoices.js';
export {
  createIssuanceWorkerDependencies, type IssuanceWorkerContext, type IssuanceWorkerDependencies, type IssuanceWorkerSettings,
} from './worker-dependencies.js';
