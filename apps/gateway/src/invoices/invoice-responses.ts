// How invoices and issuance failures look over HTTP. One place for the shapes, so POST, reissue, idempotent replays,
// the list and the consult answer the same record (SPEC.md "Invoice record": invoice_id, document_type, access_key,
// status, protocol, amount; the other fields are additive).
import {
  AlreadyReissuedError,
  InvalidInvoiceStateError,
  type InvoiceOutcome,
  InvoiceNotFoundError,
  InvoiceValidationError,
  IssuanceError,
  IssuerNotConfiguredError,
  lostNumberToInvalidation,
  NumberConflictError,
  QuotaExceededError,
  SigningNotImplementedError,
} from '@talao/issuance/create';
import type { SubmissionRecord } from '@talao/persistence';
import { Decimal } from 'decimal.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';
import { decimalText, type DecimalText } from './invoice-json.js';

/** Money as the request carries it: a decimal with 2 places (PostgreSQL's numeric drops nothing, Prisma's Decimal prints "99.8"). */
const amountOf = (invoice: InvoiceOutcome) => decimalText(new Decimal(invoice.totalAmount).toFixed(2));

const AUTHORIZED = new Set(['issued', 'cancelled']);

/**
 * The access key the authorizer knows the document by, when there is one: never for a rejected attempt (a rejected
 * document has neither access key nor protocol, SPEC.md), for an NF-e the key it was transmitted under, for an NFS-e
 * the 50-digit key the national environment assigns on authorization (before that its declaration is `dps_id`).
 */
function accessKeyOf(invoice: InvoiceOutcome): string | undefined {
  if (invoice.status === 'rejected' || !invoice.accessKey) return undefined;
  if (invoice.documentType === 'nfse' && !/^[0-9]{50}$/.test(invoice.accessKey)) return undefined;
  return invoice.accessKey;
}

export interface InvoiceRecordBody {
  invoice_id: string;
  document_type: 'nfe' | 'nfse';
  access_key?: string;
  status: InvoiceOutcome['status'];
  protocol: string | null;
  /** Written as a JSON number from this text (invoice-json.ts). */
  amount: DecimalText;
  total_amount: DecimalText;
  dps_id?: string | null;
  series: number;
  number: number;
  environment: 'homologation' | 'production';
  status_code: string | null;
  status_message: string | null;
  contingency: boolean;
  reissue_of: string | null;
  replaced_by: string | null;
  issued_at: string | null;
  created_at: string;
}

/** The invoice record; `replacedBy` is the invoice that reissued this one (an attempt is reissued once). */
export function presentInvoice(invoice: InvoiceOutcome, replacedBy: string | null = null): InvoiceRecordBody {
  const accessKey = accessKeyOf(invoice);
  const amount = amountOf(invoice);
  return {
    invoice_id: invoice.id,
    document_type: invoice.documentType,
    ...(accessKey ? { access_key: accessKey } : {}),
    status: invoice.status,
    protocol: AUTHORIZED.has(invoice.status) ? invoice.protocol : null,
    amount,
    total_amount: amount,
    ...(invoice.documentType === 'nfse' ? { dps_id: invoice.dpsId } : {}),
    series: invoice.series,
    number: invoice.number,
    environment: invoice.environment,
    status_code: invoice.statusCode,
    status_message: invoice.statusMessage,
    contingency: invoice.contingency,
    reissue_of: invoice.reissueOfId,
    replaced_by: replacedBy,
    issued_at: invoice.issuedAt?.toISOString() ?? null,
    created_at: invoice.createdAt.toISOString(),
  };
}

export function presentSubmission(submission: SubmissionRecord) {
  return {
    attempt: submission.attempt,
    operation: submission.operation,
    endpoint: submission.endpoint,
    outcome: submission.outcome,
    http_status: submission.httpStatus,
    status_code: submission.statusCode,
    status_message: submission.statusMessage,
    // Strings exactly as transmitted and received (invariant 3): never re-serialized.
    request_body: submission.requestBody,
    response_body: submission.responseBody,
    sent_at: submission.sentAt.toISOString(),
    answered_at: submission.answeredAt?.toISOString() ?? null,
  };
}

export const locationOf = (invoice: InvoiceOutcome) => `/api/v1/invoices/${invoice.id}?document_type=${invoice.documentType}`;

/** The authorizer's own words; the fallback only covers an outcome recorded without a message. */
const messageOf = (invoice: InvoiceOutcome, fallback: string) => invoice.statusMessage ?? fallback;

/**
 * The answer of POST /invoices (and reissue) for the invoice as it stands after the wait window: 201 with the record
 * when authorized, 502 with the authorizer's message when rejected (SPEC.md), and two additive answers: 202 with the
 * record while the outcome is pending, 503 when the authorizer stayed unavailable (status `failed`, reissuable), 409
 * NUMBER_INVALIDATED when the company's own invalidation took the number before anything was sent (also `failed`).
 */
export function outcomeResponse(invoice: InvoiceOutcome, requestId: string): StoredResponse {
  switch (invoice.status) {
    case 'issued':
    case 'cancelled':
      return { status: 201, body: { ...presentInvoice(invoice) } };
    case 'rejected':
      // The number stays a gap (a reissue takes a new one).
      return {
        status: 502,
        body: {
          detail: { message: messageOf(invoice, 'The authorizer rejected the document'), code: invoice.statusCode, invoice_id: invoice.id },
          request_id: requestId,
        },
      };
    case 'failed': {
      // A number the company's own invalidation took before anything was sent is a conflict, not an unavailable authorizer.
      const lost = lostNumberToInvalidation(invoice);
      return {
        status: lost ? 409 : 503,
        body: {
          detail: {
            message: messageOf(invoice, 'The authorizer stayed unavailable'),
            code: lost ? 'NUMBER_INVALIDATED' : invoice.statusCode,
            invoice_id: invoice.id,
            status: 'failed',
            ...(lost && { invalidation_id: invoice.invalidatedById }),
          },
          request_id: requestId,
        },
      };
    }
    case 'processing':
      return { status: 202, body: { ...presentInvoice(invoice) }, headers: { Location: locationOf(invoice) } };
  }
}

/** Typed failures of the issuance use cases → status and body (`detail` as SPEC.md's error table says). */
export function issuanceErrorResponse(error: unknown, requestId: string): StoredResponse | null {
  if (!(error instanceof IssuanceError)) return null;
  const envelope = (status: number, detail: unknown, extra: Record<string, unknown> = {}): StoredResponse => ({
    status,
    body: { detail, ...extra, request_id: requestId },
  });
  if (error instanceof InvoiceValidationError) return envelope(422, error.errors[0], { errors: error.errors });
  if (error instanceof IssuerNotConfiguredError) return envelope(400, error.message);
  if (error instanceof QuotaExceededError) return envelope(402, error.message);
  if (error instanceof NumberConflictError) return envelope(409, error.message);
  if (error instanceof AlreadyReissuedError)
    return envelope(409, { message: error.message, invoice_id: error.invoiceId, replaced_by: error.replacementId });
  if (error instanceof InvalidInvoiceStateError) return envelope(409, error.message);
  if (error instanceof InvoiceNotFoundError) return envelope(404, 'Invoice not found');
  if (error instanceof SigningNotImplementedError) return envelope(501, error.message);
  return envelope(400, error.message);
}
