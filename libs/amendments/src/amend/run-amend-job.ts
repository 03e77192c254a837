// The `amend` job: load the amendment, its invoice, company and certificate; hand the signed event to the exchange
// (persist before send, consult first: a lost answer is reconciled before any resend, a resend is the stored bytes);
// decide in one statement (the amendment, a cancelled invoice, the outbox event, the deciding answer). A run may be
// repeated at any point (crash, retry) and takes the consult-first path.
import { NFSE_OPERATIONS } from '@talao/authorizer-clients';
import {
  type EventDecision,
  exchangeConsultingFirst,
  ExchangeLog,
  type ExchangeResult,
  NFE_EVENT,
  nfeEvent,
  nfseCancellation,
  unsettledTransmission,
} from '@talao/authorizer-exchange';
import type { AmendedInvoice, AmendmentDecision, AmendmentRecord, NewOutboxEvent } from '@talao/persistence';
import { type AmendJobResult, type JobPayload, RetryLaterError } from '@talao/queue-contracts';
import type { AmendDeps } from './amend-context.js';
import { signedNfeEventLot, signedNfseCancellation } from './event-documents.js';

/** Sends per run at most (resends after "no record" included); more waits for the next try. */
const MAX_SENDS_PER_RUN = 3;
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
  const result: AmendJobResult = moved
    ? {
        kind: 'final',
        status: decision.status === 'registered' ? 'registered' : 'rejected',
        decided: { protocol: decision.protocol, statusCode: decision.statusCode, statusMessage: decision.statusMessage },
      }
    : { kind: 'final', status: decision.status === 'registered' ? 'registered' : 'rejected', alreadyFinal: true };
  return result;
}

function conclude(
  deps: AmendDeps,
  amendment: AmendmentRecord,
  invoice: AmendedInvoice,
  result: ExchangeResult<EventDecision>,
  log: ExchangeLog,
  finalAttempt: boolean,
): Promise<AmendJobResult> {
  if (result.kind === 'retry') throw new RetryLaterError(result.reason);
  if (result.kind === 'unavailable') {
    // Nothing reached the authorizer: retry with backoff, and on the last try the amendment is refused as such.
    if (!finalAttempt) throw new RetryLaterError(`authorizer unavailable: ${result.detail}`);
    const message = `Authorizer unavailable after every retry: ${result.detail}`.slice(0, 500);
    return decide(deps, amendment, invoice, { status: 'rejected', protocol: null, statusCode: null, statusMessage: message }, log);
  }
  return decide(deps, amendment, invoice, result.decision, log);
}

export async function runAmendJob(deps: AmendDeps, data: JobPayload<'amend'>, attempt: { final: boolean }): Promise<AmendJobResult> {
  // The amendment, its invoice, company, active certificate and exchanges: one statement (LOAD_FOR_AMEND).
  const snapshot = await deps.amendments.loadForAmend(data.amendmentId);
  if (!snapshot) return { kind: 'skipped', reason: 'no such amendment' };
  const { amendment, invoice, company, certificateId, transmissions: history } = snapshot;
  if (amendment.status !== 'pending') return { kind: 'final', status: amendment.status, alreadyFinal: true };
  if (!invoice?.accessKey || !company) return { kind: 'skipped', reason: 'the invoice or its company no longer exists' };
  const subject = { ...invoice, accessKey: invoice.accessKey };
  const log = new ExchangeLog(
    { begin: (call) => deps.amendments.begin(amendment.id, call), answer: (id, answer) => deps.amendments.answer(id, answer) },
    { invoiceId: invoice.id, companyId: invoice.companyId },
  );
  const loaded = certificateId
    ? await deps.certificateCache.loadOrUnseal(certificateId, () => deps.certificates.unseal(certificateId))
    : null;
  if (!loaded) {
    const operation = invoice.documentType === 'nfe' ? NFE_EVENT : NFSE_OPERATIONS.event;
    // An earlier run may have sent the event: then the amendment waits for a certificate to consult with.
    if (unsettledTransmission({ operation }, history)) throw new RetryLaterError('no usable certificate to consult with');
    const decision: AmendmentDecision = {
      status: 'rejected',
      protocol: null,
      statusCode: null,
      statusMessage: 'The company has no usable certificate',
    };
    return decide(deps, amendment, invoice, decision, log);
  }
  const event = () => ({ amendment, invoice: subject, company, signer: loaded.signer, at: deps.now?.() ?? new Date() });
  try {
    const options = { maxSends: MAX_SENDS_PER_RUN };
    const result =
      invoice.documentType === 'nfe'
        ? await exchangeConsultingFirst(
            nfeEvent({
              sefaz: deps.sefaz,
              caller: { credentials: loaded.credentials, environment: invoice.environment, uf: company.state },
              envEvento: () => signedNfeEventLot(event()),
            }),
            log,
            history,
            options,
          )
        : await exchangeConsultingFirst(
            nfseCancellation({
              nfse: deps.nfse,
              caller: { credentials: loaded.credentials, environment: invoice.environment },
              accessKey: subject.accessKey,
              signedRequest: () => signedNfseCancellation(event()),
              alreadyCancelledCodes: NFSE_ALREADY_CANCELLED,
            }),
            log,
            history,
            options,
          );
    return await conclude(deps, amendment, invoice, result, log, attempt.final);
  } finally {
    // An answer that decided nothing is stored before the job ends.
    await log.flush();
  }
}
