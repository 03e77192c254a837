// @talao/received-invoices/manifest: what the gateway needs to accept a manifestation — the authority's rules, the
// body, the row and its job. No XML, signing or schema library is loaded from here (apps/gateway/src/gateway-modules.spec.ts).
export * from './manifestation-rules.js';
export {
  enqueueManifestation,
  type ManifestationQueuePort,
  ManifestationRefused,
  type ManifestationRequestDeps,
  parseManifestationBody,
  requestManifestation,
} from './request-manifestation.js';
