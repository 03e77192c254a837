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
