// How invoices and issuance failures look over HTTP. One place for the shapes, so POST, reissue, idempotent replays,
// the list and the consult answer the same fields.
import {
  InvalidInvoiceStateError, type InvoiceOutcome, InvoiceNotFoundError, InvoiceValidationError, IssuanceError, IssuerNotConfiguredError, NumberConflictError, QuotaExceededError,
} from '@talao/issuance/create';
import type { InvoiceRecord, SubmissionRecord } from '@talao/persistence';
import { Decimal } from 'decimal.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';

/** The document key the integrator knows the invoice by: the access key (NF-e 44, NFS-e 50 digits) or, before an NFS-e is authorized, its DPS id. */
const keyOf = (invoice: InvoiceOutcome) => invoice.accessKey ?? invoice.dpsId;

/** Money as the request carries it: a decimal string with 2 places (PostgreSQL's numeric drops nothing, Prisma's Decimal prints "99.8"). */
const amountOf = (invoice: InvoiceOutcome) => new Decimal(invoice.totalAmount).toFixed(2);

export function presentInvoice(invoice: InvoiceRecord) {
  return {
    invoice_id: invoice.id,
    document_type: invoice.documentType,
    status: invoice.status,
    access_key: keyOf(invoice),
    ...(invoice.documentType === 'nfse' ? { dps_id: invoice.dpsId } : {}),
    series: invoice.series,
    number: invoice.number,
    environment: invoice.environment,
    protocol: invoice.protocol,
    status_code: invoice.statusCode,
    status_message: invoice.statusMessage,
    contingency: invoice.contingency,
    total_amount: amountOf(invoice),
    reissue_of: invoice.reissueOfId,
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

/** The answer of POST /invoices (and reissue) for the invoice as it stands after the wait window. */
export function outcomeResponse(invoice: InvoiceOutcome, requestId: string): StoredResponse {
  switch (invoice.status) {
    case 'issued':
    case 'cancelled':
      return {
        status: 201,
        body: {
          invoice_id: invoice.id,
          document_type: invoice.documentType,
          access_key: invoice.accessKey,
          status: 'issued',
          protocol: invoice.protocol,
          series: invoice.series,
          number: invoice.number,
          environment: invoice.environment,
          issued_at: invoice.issuedAt?.toISOString() ?? null,
          total_amount: amountOf(invoice),
          ...(invoice.contingency ? { contingency: true } : {}),
        },
      };
    case 'rejected':
      // The authorizer's own words; the number stays a gap (reissue takes a new one).
      return {
        status: 502,
        body: { detail: { message: invoice.statusMessage, code: invoice.statusCode, invoice_id: invoice.id }, request_id: requestId },
      };
    case 'failed':
      return {
        status: 503,
        body: { detail: { message: invoice.statusMessage, code: invoice.statusCode, invoice_id: invoice.id, status: 'failed' }, request_id: requestId },
      };
    case 'processing':
      return { status: 202, body: { invoice_id: invoice.id, status: 'processing' }, headers: { Location: locationOf(invoice) } };
  }
}

/** Typed failures of the issuance use cases → status and body (`detail` as the error table says). */
export function issuanceErrorResponse(error: unknown, requestId: string): StoredResponse | null {
  if (!(error instanceof IssuanceError)) return null;
  const envelope = (status: number, detail: unknown, extra: Record<string, unknown> = {}): StoredResponse => ({ status, body: { detail, ...extra, request_id: requestId } });
  if (error instanceof InvoiceValidationError) return envelope(422, error.errors[0], { errors: error.errors });
  if (error instanceof IssuerNotConfiguredError) return envelope(400, error.message);
  if (error instanceof QuotaExceededError) return envelope(402, error.message);
  if (error instanceof NumberConflictError) return envelope(409, error.message);
  if (error instanceof InvalidInvoiceStateError) return envelope(409, error.message);
  if (error instanceof InvoiceNotFoundError) return envelope(404, 'Invoice not found');
  return envelope(400, error.message);
}
