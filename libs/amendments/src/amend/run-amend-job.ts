// The `amend` job: load the amendment, its invoice, company and certificate; hand the signed event to the exchange
// (persist before send, consult first: a lost answer is reconciled before any resend, a resend is the stored bytes);
// decide in one statement (the amendment, a cancelled invoice, the outbox event, the deciding answer). A run may be
// repeated at any point (crash, retry) and takes the consult-first path.
import { NFSE_OPERATIONS } from '@talao/authorizer-clients';
import {
  ExchangeLog,
  exchangeFiledRequest,
  filedRequestResult,
  type LoadedCertificate,
  NFE_EVENT,
  nfeEvent,
  nfseCancellation,
  transmissionsOf,
  usableCertificate,
} from '@talao/authorizer-exchange';
import type { AmendedInvoice, AmendmentDecision, AmendmentRecord, NewOutboxEvent } from '@talao/persistence';
import type { AmendJobResult, JobPayload, JobTry } from '@talao/queue-contracts';
import type { AmendDeps } from './amend-context.js';
import { signedNfeEventLot, signedNfseCancellation } from './event-documents.js';

/** The national API's "NFS-e já cancelada" (the simulator's code): after a lost answer, a lookup decides. */
const NFSE_ALREADY_CANCELLED = new Set(['SIM0013', 'E0840']);

const EVENT_TYPES = { cancellation: 'invoice.cancelled', correction: 'invoice.corrected' } as const;

function eventOf(amendment: AmendmentRecord, invoice: AmendedInvoice, decision: AmendmentDecision, at: Date): NewOutboxEvent {
  return {
    companyId: invoice.companyId,
    environment: invoice.environment,
    type: EVENT_TYPES[amendment.kind],
    aggregateId: invoice.id,
    payload: {
      invoice_id: invoice.id,
      document_type: invoice.documentType,
      access_key: invoice.accessKey,
      status: amendment.kind === 'cancellation' ? 'cancelled' : invoice.status,
      amount: invoice.totalAmount,
      amendment_id: amendment.id,
      sequence: amendment.sequence,
      protocol: decision.protocol,
      status_code: decision.statusCode,
      status_message: decision.statusMessage,
      environment: invoice.environment,
      occurred_at: at.toISOString(),
    },
  };
}

async function decide(deps: AmendDeps, amendment: AmendmentRecord, invoice: AmendedInvoice, decision: AmendmentDecision, log: ExchangeLog) {
  const at = deps.now?.() ?? new Date();
  const event = decision.status === 'registered' ? eventOf(amendment, invoice, decision, at) : null;
  const moved = await deps.amendments.finish(amendment.id, decision, event, log.take());
  deps.logger.info(
    { amendmentId: amendment.id, kind: amendment.kind, status: decision.status, code: decision.statusCode, moved },
    'amendment decided',
  );
  return filedRequestResult(decision, moved);
}

export async function runAmendJob(deps: AmendDeps, data: JobPayload<'amend'>, attempt: JobTry): Promise<AmendJobResult> {
  // The amendment, its invoice, company, active certificate and exchanges: one statement (LOAD_FOR_AMEND).
  const snapshot = await deps.amendments.loadForAmend(data.amendmentId);
  if (!snapshot) return { kind: 'skipped', reason: 'no such amendment' };
  const { amendment, invoice, company, certificateId, transmissions: history } = snapshot;
  if (amendment.status !== 'pending') return { kind: 'final', status: amendment.status, alreadyFinal: true };
  if (!invoice?.accessKey || !company) return { kind: 'skipped', reason: 'the invoice or its company no longer exists' };
  const subject = { ...invoice, accessKey: invoice.accessKey };
  const log = new ExchangeLog(transmissionsOf(deps.amendments, amendment.id), { invoiceId: invoice.id, companyId: invoice.companyId });
  const loaded = certificateId
    ? await usableCertificate(() => deps.certificateCache.loadOrUnseal(certificateId, () => deps.certificates.unseal(certificateId)))
    : null;
  const event = (signer: LoadedCertificate['signer']) => ({ amendment, invoice: subject, company, signer, at: deps.now?.() ?? new Date() });
  const filed = {
    certificate: loaded,
    log,
    history,
    decide: (decision: AmendmentDecision) => decide(deps, amendment, invoice, decision, log),
    finalAttempt: attempt.final,
  };
  return invoice.documentType === 'nfe'
    ? exchangeFiledRequest({
        ...filed,
        operation: NFE_EVENT,
        strategy: ({ credentials, signer }) =>
          nfeEvent({
            sefaz: deps.sefaz,
            caller: { credentials, environment: invoice.environment, uf: company.state },
            envEvento: () => signedNfeEventLot(event(signer)),
          }),
      })
    : exchangeFiledRequest({
        ...filed,
        operation: NFSE_OPERATIONS.event,
        strategy: ({ credentials, signer }) =>
          nfseCancellation({
            nfse: deps.nfse,
            caller: { credentials, environment: invoice.environment },
            accessKey: subject.accessKey,
            signedRequest: () => signedNfseCancellation(event(signer)),
            alreadyCancelledCodes: NFSE_ALREADY_CANCELLED,
          }),
      });
}
