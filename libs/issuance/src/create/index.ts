// @talao/issuance/create: the create side alone, for the gateway — what it loads is plain TypeScript over repositories
// and the queue (fiscal-model's validation and document identity), never the XML, signing or authorizer libraries the
// worker's side needs.
//   createInvoice(deps, { companyId, environment, body })               → { invoice, enqueued }
//   reissueInvoice(deps, { companyId, environment, invoiceId })          → { invoice, enqueued }
//   new OutcomeWaiter(invoices, jobOutcomes).waitForFinal(invoiceId, ms)    → the invoice when final, or still processing
// Failures are IssuanceError subclasses with a `kind` for the delivery to map.
export * from '../errors.js';
export type * from '../ports.js';
export {
  createInvoice,
  type CreateInvoiceCommand,
  type CreateInvoiceDeps,
  type CreatedInvoice,
  type CreateSideCertificatesPort,
} from './create-invoice.js';
export { reissueInvoice, type ReissueCommand } from './reissue-invoice.js';
export { assertSigningImplemented, UNSIGNABLE_DOCUMENT_TYPES } from './document-support.js';
export { issuerProfileOf, issuingProblems, profileProblems } from './issuer-configuration.js';
export { billingPeriod } from './production-quota.js';
export { lostNumberToInvalidation } from '../invalidated-number.js';
export { type InvoiceOutcome, type InvoiceReader, type JobEndEvents, OutcomeWaiter } from './outcome-waiter.js';
export { requestBodyOf, validatedRequestOf, type StoredRequest } from './stored-request.js';
