// POST /invoices/{access_key}/correction (CC-e, NF-e only), the request side: the text, the document type (409 on an
// NFS-e, SPEC.md rule 1), the status (issued, never on a cancelled document) and the 20 letters (nSeqEvento 1..20,
// numbered here; the 21st → 409) are checked before anything is stored or sent. Each letter replaces the previous
// one at SEFAZ; the document stays `issued` and its record lists the letters.
import type { AmendedInvoice, AmendmentRecord } from '@talao/persistence';
import { z } from 'zod';
import { layoutText } from '@talao/fiscal-model';
import { AmendmentRefused, bodyRefusal } from './amendment-errors.js';
import type { AmendmentRequestDeps, AmendmentScope } from './ports.js';
import { enqueueAmendment, findAmendableInvoice } from './request-cancellation.js';

/** CC-e xCorrecao: 15–1000 characters (SPEC.md "correction text"). */
export const CORRECTION_LENGTH = { min: 15, max: 1000 } as const;
/** nSeqEvento of the CC-e runs 1..20: at most 20 letters per document. */
export const MAX_CORRECTION_LETTERS = 20;

// The text as the CC-e carries it (folded, trimmed, printable Latin-1); its length is checked below.
const correctionBody = z.strictObject({ correction: layoutText(), document_type: z.enum(['nfe', 'nfse']).optional() });

export interface CorrectionRequest extends AmendmentScope {
  key: string;
  body: unknown;
}

const refused = (status: 409 | 422, detail: Record<string, unknown>) => new AmendmentRefused(status, detail);

export async function requestCorrection(
  deps: AmendmentRequestDeps,
  request: CorrectionRequest,
): Promise<{ invoice: AmendedInvoice; amendment: AmendmentRecord }> {
  const parsed = correctionBody.safeParse(request.body ?? {});
  if (!parsed.success) throw bodyRefusal(parsed.error);
  const { correction, document_type: type } = parsed.data;
  const { invoice, amendments } = await findAmendableInvoice(deps, request, request.key, type);
  if (invoice.documentType !== 'nfe')
    throw refused(409, { code: 'NFE_ONLY', message: 'The correction letter (CC-e) exists for the NF-e only', invoice_id: invoice.id });
  if (correction.length < CORRECTION_LENGTH.min || correction.length > CORRECTION_LENGTH.max)
    throw refused(422, {
      code: 'FIELD_INVALID',
      field: 'correction',
      message: `correction must be ${CORRECTION_LENGTH.min} to ${CORRECTION_LENGTH.max} characters (got ${correction.length})`,
    });
  if (invoice.status === 'cancelled' || amendments.some((a) => a.kind === 'cancellation' && a.status !== 'rejected'))
    throw refused(409, {
      code: 'CANCELLED',
      message: 'A cancelled document (or one being cancelled) takes no correction letter',
      invoice_id: invoice.id,
    });
  if (invoice.status !== 'issued')
    throw refused(409, {
      code: 'NOT_ISSUED',
      message: `Only an issued document takes a correction letter; this one is ${invoice.status}`,
      invoice_id: invoice.id,
    });
  const letters = amendments.filter((a) => a.kind === 'correction');
  const pending = letters.find((a) => a.status === 'pending');
  if (pending) {
    // The same letter again resumes it; another one waits until SEFAZ has numbered the one in flight.
    if (pending.text !== correction)
      throw refused(409, {
        code: 'CORRECTION_IN_PROGRESS',
        message: `Correction letter ${pending.sequence} is still being registered`,
        invoice_id: invoice.id,
      });
    await enqueueAmendment(deps, pending);
    return { invoice, amendment: pending };
  }
  // A refused letter used its number (its event Id was seen by SEFAZ): the next letter takes the next one.
  const sequence = letters.reduce((max, a) => Math.max(max, a.sequence), 0) + 1;
  if (sequence > MAX_CORRECTION_LETTERS)
    throw refused(409, {
      code: 'CORRECTION_LIMIT',
      message: `At most ${MAX_CORRECTION_LETTERS} correction letters per document (nSeqEvento 1 to ${MAX_CORRECTION_LETTERS}); this one has them all`,
      invoice_id: invoice.id,
    });
  const { amendment, created } = await deps.amendments.create({
    companyId: invoice.companyId,
    environment: invoice.environment,
    invoiceId: invoice.id,
    kind: 'correction',
    sequence,
    text: correction,
  });
  await enqueueAmendment(deps, amendment, created);
  return { invoice, amendment };
}
