// Public API of @talao/fiscal-model: pure functions and types, no I/O.
export * from './identifiers/tax-id.js';
export * from './identifiers/gtin.js';
export * from './tables/ibge.js';
export type { MunicipalityRecord, StateRecord } from './tables/state-record.js';
export * from './access-key/access-key.js';
export * from './access-key/numeric-code.js';
