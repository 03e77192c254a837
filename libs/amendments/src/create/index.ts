// @talao/amendments/create: what the gateway needs to accept an amendment — the local checks, the amendment row, the
// job, the waiter. No XML, signing or schema library is loaded from here (apps/gateway/src/gateway-modules.spec.ts).
export { AmendmentRefused, invoiceNotFound } from './amendment-errors.js';
export { type AmendmentJobEvents, AmendmentWaiter } from './amendment-waiter.js';
export {
  CANCEL_REASON_LENGTH,
  LATE_CANCELLATION,
  NFE_CANCELLATION_WINDOW_HOURS,
  nfeCancellationWindowMs,
  withinCancellationWindow,
} from './cancellation-rules.js';
export type { AmendmentQueuePort, AmendmentRequestDeps, AmendmentScope, AmendmentsPort } from './ports.js';
export { type CancellationRequest, enqueueAmendment, findAmendableInvoice, requestCancellation } from './request-cancellation.js';
export { CORRECTION_LENGTH, type CorrectionRequest, MAX_CORRECTION_LETTERS, requestCorrection } from './request-correction.js';
export { refusedForNumbersInUse } from './numbers-in-use.js';
export {
  type InvalidationRequest,
  type InvalidationRequestDeps,
  MAX_INVALIDATION_RANGE,
  requestInvalidation,
} from './request-invalidation.js';
