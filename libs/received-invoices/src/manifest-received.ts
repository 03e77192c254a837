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
  ExchangeLog,
  exchangeFiledRequest,
  filedRequestResult,
  isPending,
  nfeEvent,
  NFE_EVENT,
  settledResult,
  transmissionsOf,
  usableCertificate,
} from '@talao/authorizer-exchange';
import { findStateByCode } from '@talao/fiscal-model';
import { buildManifestationEvent, type ManifestationType, signValidateEventLot, stateUtcOffset } from '@talao/fiscal-xml';
import type { ActiveCertificate, Company, ManifestationRecord, ReceivedManifestationsRepository } from '@talao/persistence';
import type { AmendJobResult, JobPayload, JobTry } from '@talao/queue-contracts';
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

export async function runManifestJob(deps: ManifestDeps, data: JobPayload<'manifest'>, attempt: JobTry): Promise<AmendJobResult> {
  const manifestation = await deps.manifestations.findById(data.manifestationId);
  if (!isPending(manifestation)) {
    // Registered earlier, but the run that decided it may have died before the full XML was fetched.
    if (manifestation?.status === 'registered') await fetchFullDocument(deps, manifestation);
    return settledResult(manifestation, 'manifestation');
  }
  const [company, stored, history] = await Promise.all([
    deps.companies.findById(manifestation.companyId),
    deps.certificates.findActive(manifestation.companyId),
    deps.manifestations.transmissions(manifestation.id),
  ]);
  if (!company) return { kind: 'skipped', reason: 'the company no longer exists' };
  const log = new ExchangeLog(transmissionsOf(deps.manifestations, manifestation.id), {
    invoiceId: manifestation.id,
    companyId: manifestation.companyId,
  });
  const decide = async (decision: EventDecision) => {
    const moved = await deps.manifestations.finish(manifestation.id, decision, log.take());
    deps.logger.info({ manifestationId: manifestation.id, type: manifestation.eventType, ...decision, moved }, 'manifestation decided');
    if (decision.status === 'registered') await fetchFullDocument(deps, manifestation);
    return filedRequestResult(decision, moved);
  };
  const issuerState = findStateByCode(manifestation.accessKey.slice(0, 2))?.uf ?? company.state;
  return exchangeFiledRequest({
    operation: NFE_EVENT,
    certificate: stored ? await usableCertificate(() => deps.certificateCache.load(stored.id, stored.pkcs12, stored.password)) : null,
    strategy: ({ credentials, signer }) =>
      nfeEvent({
        sefaz: deps.sefaz,
        caller: { credentials, environment: manifestation.environment, uf: company.state },
        envEvento: () => signedManifestation(manifestation, company, signer, deps.now?.() ?? new Date()),
        national: { consultUf: issuerState },
      }),
    log,
    history,
    decide,
    finalAttempt: attempt.final,
  });
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
