// Public API of @talao/authorizer-clients: SEFAZ (SOAP 1.2) and NFS-e Nacional (REST) clients, routing, transport.
export * from './routing/endpoint-types.js';
export * from './routing/resolve-sefaz-endpoint.js';
export * from './routing/nfse-nacional-endpoints.js';
export * from './outcome.js';
export * from './transport/exchange.js';
export * from './transport/https-call.js';
export * from './transport/mutual-tls-agents.js';
export * from './transport/prepared-call.js';
export * from './transport/soap-envelope.js';
export * from './sefaz/ret-cons-reci-nfe.js';
export {
  AUTHORIZED_CODES,
  DENIED_CODES,
  NFE_ALREADY_HELD,
  NFE_NOT_ON_RECORD,
  nfeRecordState,
  type NfeRecordState,
} from './sefaz/sefaz-classification.js';
export * from './sefaz/nfe-record.js';
export * from './sefaz/sefaz-client.js';
export * from './nfse/nfse-nacional-client.js';
