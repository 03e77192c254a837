// The `manifest` job (received queue, apps/received-sync): the recipient's event on a received NF-e, built and signed
// with the company's A1, validated against envConfRecebto, and handed to the NF-e events exchange at the national
// environment (RecepcaoEvento AN, cOrgao 91): persist before send, consult first (a lost answer or a 573 is reconciled
// with the issuer's state's consult, which lists the events AN registered). One statement decides the row. After
// awareness, confirmation or operation-not-performed, the full XML (nfeProc) is fetched by key (consChNFe) and stored.
// A run may be repeated at any point (crash, retry) and takes the consult-first path.
import type { SefazClient } from '@talao/authorizer-clients';
import {
  type CertificateCache,
  type EventDecision,
  exchangeConsultingFirst,
  ExchangeLog,
  nfeEvent,
  unsettledTransmission,
  NFE_EVENT,
} from '@talao/authorizer-exchange';
import { findStateByCode } from '@talao/fiscal-model';
import { buildManifestationEvent, type ManifestationType, signValidateEventLot, stateUtcOffset } from '@talao/fiscal-xml';
import type { ActiveCertificate, Company, ManifestationRecord, ReceivedManifestationsRepository } from '@talao/persistence';
import { type AmendJobResult, type JobPayload, RetryLaterError } from '@talao/queue-contracts';
import { grantsFullXml } from './manifest/manifestation-rules.js';
import { recordOf } from './nfe-distribution-records.js';

export interface ManifestDeps {
  companies: { findById(id: string): Promise<Company | null> };
  certificates: { findActive(companyId: string): Promise<ActiveCertificate | null> };
  certificateCache: CertificateCache;
  manifestations: ReceivedManifestationsRepository;
  sefaz: SefazClient;
  logger: { info(bindings: object, message: string): void; warn(bindings: object, message: string): void };
  now?: () => Date;
}

const MAX_SENDS_PER_RUN = 3;

/** The envEvento holding the one signed manifestation. */
function signedManifestation(
  manifestation: ManifestationRecord,
  company: Company,
  signer: Parameters<typeof signValidateEventLot>[2],
  at: Date,
) {
  const event = buildManifestationEvent({
    environment: manifestation.environment,
    author: company.taxId.length === 11 ? { cpf: company.taxId } : { cnpj: company.taxId },
    accessKey: manifestation.accessKey,
    eventAt: at,
    utcOffset: stateUtcOffset(company.state),
    type: manifestation.eventType as ManifestationType,
    sequence: manifestation.sequence,
    ...(manifestation.justification !== null && { justification: manifestation.justification }),
  });
  return signValidateEventLot(String(at.getTime()).slice(-15), [event], signer, 'envConfRecebto');
}

function resultOf(decision: EventDecision, moved: boolean): AmendJobResult {
  const { protocol, statusCode, statusMessage } = decision;
  return moved
    ? { kind: 'final', status: decision.status, decided: { protocol, statusCode, statusMessage } }
    : { kind: 'final', status: decision.status, alreadyFinal: true };
}

export async function runManifestJob(
  deps: ManifestDeps,
  data: JobPayload<'manifest'>,
  attempt: { final: boolean },
): Promise<AmendJobResult> {
  const manifestation = await deps.manifestations.findById(data.manifestationId);
  if (!manifestation) return { kind: 'skipped', reason: 'no such manifestation' };
  if (manifestation.status !== 'pending') {
    // Registered earlier, but the run that decided it may have died before the full XML was fetched.
    if (manifestation.status === 'registered') await fetchFullDocument(deps, manifestation);
    return { kind: 'final', status: manifestation.status, alreadyFinal: true };
  }
  const [company, stored, history] = await Promise.all([
    deps.companies.findById(manifestation.companyId),
    deps.certificates.findActive(manifestation.companyId),
    deps.manifestations.transmissions(manifestation.id),
  ]);
  if (!company) return { kind: 'skipped', reason: 'the company no longer exists' };
  const log = new ExchangeLog(
    { begin: (call) => deps.manifestations.begin(manifestation.id, call), answer: (id, answer) => deps.manifestations.answer(id, answer) },
    { invoiceId: manifestation.id, companyId: manifestation.companyId },
  );
  const decide = async (decision: EventDecision) => {
    const moved = await deps.manifestations.finish(manifestation.id, decision, log.take());
    deps.logger.info({ manifestationId: manifestation.id, type: manifestation.eventType, ...decision, moved }, 'manifestation decided');
    if (decision.status === 'registered') await fetchFullDocument(deps, manifestation);
    return resultOf(decision, moved);
  };
  if (!stored) {
    // An earlier run may have sent the event: then it waits for a certificate to consult with.
    if (unsettledTransmission({ operation: NFE_EVENT }, history)) throw new RetryLaterError('no usable certificate to consult with');
    return decide({ status: 'rejected', protocol: null, statusCode: null, statusMessage: 'The company has no usable certificate' });
  }
  const loaded = deps.certificateCache.load(stored.id, stored.pkcs12, stored.password);
  const issuerState = findStateByCode(manifestation.accessKey.slice(0, 2))?.uf ?? company.state;
  try {
    const result = await exchangeConsultingFirst(
      nfeEvent({
        sefaz: deps.sefaz,
        caller: { credentials: loaded.credentials, environment: manifestation.environment, uf: company.state },
        envEvento: () => signedManifestation(manifestation, company, loaded.signer, deps.now?.() ?? new Date()),
        national: { consultUf: issuerState },
      }),
      log,
      history,
      { maxSends: MAX_SENDS_PER_RUN },
    );
    if (result.kind === 'retry') throw new RetryLaterError(result.reason);
    if (result.kind === 'unavailable') {
      // Nothing reached the authorizer: retry with backoff; on the last try the manifestation is refused as such.
      if (!attempt.final) throw new RetryLaterError(`authorizer unavailable: ${result.detail}`);
      const message = `Authorizer unavailable after every retry: ${result.detail}`.slice(0, 500);
      return await decide({ status: 'rejected', protocol: null, statusCode: null, statusMessage: message });
    }
    return await decide(result.decision);
  } finally {
    await log.flush();
  }
}

/**
 * The full document after awareness, confirmation or operation-not-performed (not after unknown operation): asked by
 * key (consChNFe) and stored on the received row. A query that changes nothing at the authority, so no persist-before-
 * send; when it fails the next distribution sync brings the nfeProc all the same (the authority feeds it after the
 * event), so a failure here is logged, never a reason to retry a decided manifestation.
 */
async function fetchFullDocument(deps: ManifestDeps, manifestation: ManifestationRecord): Promise<void> {
  if (!grantsFullXml(manifestation.eventType)) return;
  const document = await deps.manifestations.documentById(manifestation.documentId);
  if (!document || document.hasFull) return;
  const [company, stored] = await Promise.all([
    deps.companies.findById(manifestation.companyId),
    deps.certificates.findActive(manifestation.companyId),
  ]);
  if (!company || !stored) return;
  const loaded = deps.certificateCache.load(stored.id, stored.pkcs12, stored.password);
  const outcome = await deps.sefaz.distribution(
    { credentials: loaded.credentials, environment: manifestation.environment, uf: company.state },
    {
      interested: company.taxId.length === 11 ? { cpf: company.taxId } : { cnpj: company.taxId },
      query: { kind: 'accessKey', accessKey: manifestation.accessKey },
    },
  );
  const full = outcome.status === 'accepted' || outcome.status === 'authorized' ? outcome.result.documents.map(recordOf) : [];
  const found = full.find((r) => r.kind === 'document' && r.record.form === 'full' && r.record.accessKey === manifestation.accessKey);
  if (!found || found.kind !== 'document') {
    deps.logger.warn(
      { manifestationId: manifestation.id, status: outcome.status, code: 'code' in outcome ? outcome.code : undefined },
      'full XML not fetched by key; the next distribution sync brings it',
    );
    return;
  }
  const storedNow = await deps.manifestations.storeFull(manifestation.companyId, manifestation.environment, found.record);
  deps.logger.info({ manifestationId: manifestation.id, stored: storedNow }, 'full XML fetched after manifestation');
}
