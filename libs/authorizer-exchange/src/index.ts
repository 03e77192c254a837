// @talao/authorizer-exchange: persist before send and consult first for every authorizer operation.
//   new ExchangeLog(store, subject).call(prepared)        stores the exact request, sends it, holds the exact answer
//   exchangeConsultingFirst(strategy, log, history)        consults before any resend; → decided | unavailable | retry
//   nfeAuthorization({ sefaz, caller, signedNfe })         NF-e (NFeAutorizacao4 / NFeConsultaProtocolo4)
//   nfseEmission({ nfse, caller, signedDps })              NFS-e Nacional (POST /nfse / GET /dps / GET /nfse)
//   new CertificateCache().loadOrUnseal(id, unseal)        a company's parsed A1: signer and mTLS credentials
//   openAuthorizerConnections(settings.authorizers)        a worker's SEFAZ and Sefin/ADN clients, agents, certificate cache
//   authorizerWorkerLifecycle(database, authorizers)       a worker's readiness check and the close of both
//   nfeEvent({ sefaz, caller, envEvento })                 NF-e events of the issuer (cancellation, CC-e; NFeRecepcaoEvento4)
//   nfseCancellation({ nfse, caller, accessKey, … })       NFS-e cancellation (POST /nfse/{key}/eventos e101101)
//   nfeInutilizacao({ sefaz, caller, signedInutNFe })    NF-e numbering invalidation (NFeInutilizacao4; resend = consult)
//   exchangeFiledRequest({ operation, certificate, strategy, log, history, decide, … })
//                                                          how a job filing one event or inutilização ends (certificate, retries, decision)
// A new operation (manifestation, distribution) is one more strategy.
export {
  answerOf,
  ExchangeLog,
  type ExchangeSubject,
  type FiledRequestTransmissions,
  type NewTransmission,
  type PendingAnswer,
  type StoredTransmission,
  type TransmissionAnswer,
  type TransmissionStore,
  transmissionsOf,
} from './exchange-log.js';
export {
  DEFAULT_MAX_SENDS,
  exchangeConsultingFirst,
  type ExchangeOptions,
  type ExchangeResult,
  type ExchangeStrategy,
  type Reconciled,
  type Settled,
  unsettledTransmission,
} from './consult-first.js';
export {
  exchangeFiledRequest,
  filedRequestResult,
  type FiledRequestRun,
  isPending,
  refusedLocally,
  settledResult,
} from './filed-request.js';
export { CertificateCache, type LoadedCertificate, usableCertificate } from './certificate-cache.js';
export { type AuthorizerConnections, type AuthorizerConnectionSettings, openAuthorizerConnections } from './authorizer-connections.js';
export { authorizerWorkerLifecycle, type AuthorizerWorkerLifecycle, type AuthorizerWorkerSettings } from './authorizer-worker.js';
export type { DocumentDecision } from './strategies/document-decision.js';
export {
  accessKeyOf,
  NFE_AUTHORIZATION,
  nfeAuthorization,
  type NfeAuthorizationOptions,
  signedNfeOf,
} from './strategies/nfe-authorization.js';
export { dpsIdOf, nfseEmission, type NfseEmissionOptions, signedDpsOf } from './strategies/nfse-emission.js';
export type { EventDecision } from './strategies/event-decision.js';
export { NFE_DUPLICATE_EVENT, NFE_EVENT, nfeEvent, nfeEventIdentity, type NfeEventOptions } from './strategies/nfe-event.js';
export {
  NFSE_CANCELLATION_EVENT,
  nfseCancellation,
  type NfseCancellationOptions,
  signedEventRequestOf,
} from './strategies/nfse-cancellation.js';
export {
  NFE_INUTILIZACAO,
  NFE_SAME_RANGE_INVALIDATED,
  nfeInutilizacao,
  type NfeInutilizacaoOptions,
} from './strategies/nfe-inutilizacao.js';
