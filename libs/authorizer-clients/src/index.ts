// Public API of @talao/authorizer-clients: SEFAZ (SOAP 1.2) and NFS-e Nacional (REST) clients, routing, transport.
export * from './routing/endpoint-types.js';
export * from './routing/resolve-sefaz-endpoint.js';
export * from './routing/nfse-nacional-endpoints.js';
