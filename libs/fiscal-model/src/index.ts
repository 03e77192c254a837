// Public API of @talao/fiscal-model: pure functions and types, no I/O.
export * from './identifiers/tax-id.js';
export * from './identifiers/gtin.js';
export * from './tables/ibge.js';
export type { MunicipalityRecord, StateRecord } from './tables/state-record.js';
export * from './access-key/access-key.js';
export * from './access-key/numeric-code.js';
export type * from './documents/nfe-document.js';
export type * from './documents/nfe-icms.js';
export type * from './documents/nfe-federal-taxes.js';
export type * from './documents/nfe-ibs-cbs.js';
export type * from './documents/dps-document.js';
export * from './decimal/money.js';
export * from './tables/national-codes.js';
export * from './request/field-error.js';
export { CHARSET_CODE, isCharsetIssue, layoutText } from './request/schema-fields.js';
export * from './request/issuer-profile.js';
export * from './request/invoice-request-schema.js';
export { NFE_REQUEST_EXAMPLE, NFSE_REQUEST_EXAMPLE } from './request/request-examples.js';
export * from './request/tax-schema.js';
export type * from './request/validated-request.js';
export {
  acceptedRequestBody,
  validateInvoiceRequest,
  ibsCbsRequired,
  type ValidationResult,
  type ValidationOptions,
} from './request/validate-invoice-request.js';
export * from './documents/compute-nfe.js';
export * from './documents/compute-dps.js';
export { documentIdentity, type DocumentIdentity, type IdentityContext } from './documents/document-identity.js';
export { localTime, type LocalTime } from './documents/issue-time.js';
export { computeItemTaxes, type ItemTaxes } from './taxes/compute-item-taxes.js';
export { computeTotals, type NfeTotals } from './documents/compute-totals.js';
