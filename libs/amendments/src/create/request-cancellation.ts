// POST /invoices/{access_key}/cancel, the request side: every rule the service can check is checked here, before
// anything is stored or sent (body, document, status, window); then the amendment is stored `pending` and its job
// enqueued (jobId = the amendment's id). A repeated request while one is pending resumes that one (no second event).
import { enqueueReplacingEnded } from '@talao/queue-contracts';
import type { AmendableInvoice, AmendedInvoice, AmendmentRecord } from '@talao/persistence';
import { z } from 'zod';
import { layoutText } from '@talao/fiscal-model';
import { AmendmentRefused, bodyRefusal, invoiceNotFound } from './amendment-errors.js';
import { CANCEL_REASON_LENGTH, LATE_CANCELLATION, withinCancellationWindow } from './cancellation-rules.js';
import type { AmendmentRequestDeps, AmendmentScope } from './ports.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOCUMENT_KEY = /^(?:[0-9]{44}|[0-9]{50})$/;

const documentType = z.enum(['nfe', 'nfse']);
// The reason as the event carries it (folded, trimmed, printable Latin-1); its length is checked per document type.
const cancelBody = z.strictObject({ reason: layoutText(), document_type: documentType.optional() });

export interface CancellationRequest extends AmendmentScope {
  /** The path's access key (NF-e 44, NFS-e 50 digits) or the invoice id. */
  key: string;
  body: unknown;
  /** `document_type` of the query, when given. */
  queryDocumentType?: string;
}

/** A 422 in the gateway's shape: the first problem as `detail`. */
function invalid(field: string, message: string): AmendmentRefused {
  return new AmendmentRefused(422, { code: 'FIELD_INVALID', field, message });
}

function parseCancelBody(request: CancellationRequest): { reason: string; documentType?: 'nfe' | 'nfse' } {
  const parsed = cancelBody.safeParse(request.body ?? {});
  if (!parsed.success) throw bodyRefusal(parsed.error);
  let type = parsed.data.document_type;
  if (request.queryDocumentType !== undefined) {
    const fromQuery = documentType.safeParse(request.queryDocumentType);
    if (!fromQuery.success) throw invalid('document_type', 'document_type must be one of: nfe, nfse');
    if (type && type !== fromQuery.data) throw invalid('document_type', 'document_type differs between the body and the query');
    type = fromQuery.data;
  }
  return { reason: parsed.data.reason, ...(type ? { documentType: type } : {}) };
}

/**
 * The company's invoice in the key's environment by access key or id, with its company's state and its amendments
 * (one statement); the document type, when given, must match.
 */
export async function findAmendableInvoice(
  deps: AmendmentRequestDeps,
  scope: AmendmentScope,
  key: string,
  type?: 'nfe' | 'nfse',
): Promise<AmendableInvoice> {
  let found: AmendableInvoice | null = null;
  const { companyId, environment } = scope;
  if (UUID.test(key)) found = await deps.amendments.findAmendable({ companyId, environment }, { id: key });
  else if (DOCUMENT_KEY.test(key)) found = await deps.amendments.findAmendable({ companyId, environment }, { accessKey: key });
  if (!found || (type && found.invoice.documentType !== type)) throw invoiceNotFound();
  return found;
}

/**
 * Enqueues the amendment's job; false when Redis refused it. `created`: the row was inserted by this request, so no
 * job of it can exist yet (one Redis round trip less on the common path).
 */
export async function enqueueAmendment(deps: AmendmentRequestDeps, amendment: AmendmentRecord, created = false): Promise<boolean> {
  try {
    await enqueueReplacingEnded(deps.queue, { name: 'amend', data: { amendmentId: amendment.id } }, { fresh: created });
    return true;
  } catch {
    return false;
  }
}

export async function requestCancellation(
  deps: AmendmentRequestDeps,
  request: CancellationRequest,
): Promise<{ invoice: AmendedInvoice; amendment: AmendmentRecord }> {
  const { reason, documentType: type } = parseCancelBody(request);
  const { invoice, companyState, amendments } = await findAmendableInvoice(deps, request, request.key, type);
  const length = CANCEL_REASON_LENGTH[invoice.documentType];
  if (reason.length < length.min || reason.length > length.max)
    throw invalid('reason', `reason must be ${length.min} to ${length.max} characters for ${invoice.documentType} (got ${reason.length})`);

  const earlier = amendments.filter((a) => a.kind === 'cancellation');
  const pending = earlier.find((a) => a.status === 'pending');
  if (invoice.status === 'cancelled' || earlier.some((a) => a.status === 'registered'))
    throw new AmendmentRefused(409, { code: 'ALREADY_CANCELLED', message: 'The document is already cancelled', invoice_id: invoice.id });
  if (pending) {
    await enqueueAmendment(deps, pending);
    return { invoice, amendment: pending };
  }
  if (invoice.status !== 'issued')
    throw new AmendmentRefused(409, {
      code: 'NOT_ISSUED',
      message: `Only an issued document can be cancelled; this one is ${invoice.status}`,
      invoice_id: invoice.id,
    });
  if (invoice.documentType === 'nfe') {
    const now = deps.now?.() ?? new Date();
    if (!withinCancellationWindow(companyState, invoice.issuedAt ?? invoice.createdAt, now))
      throw new AmendmentRefused(409, { ...LATE_CANCELLATION, invoice_id: invoice.id });
  }
  // A cancellation the authorizer refused may be asked again: each request is its own row (sequence = try number);
  // the event itself always carries nSeqEvento 1.
  const { amendment, created } = await deps.amendments.create({
    companyId: invoice.companyId,
    environment: invoice.environment,
    invoiceId: invoice.id,
    kind: 'cancellation',
    sequence: earlier.length + 1,
    text: reason,
  });
  await enqueueAmendment(deps, amendment, created);
  return { invoice, amendment };
}
