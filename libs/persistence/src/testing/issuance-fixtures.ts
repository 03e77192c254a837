// Test support: the rows an issuance writes, as the integration specs build them: homologation NF-e of one company.
import type { NewInvoice } from '../repositories/invoices-repository.js';
import type { NewOutboxEvent } from '../repositories/issuance-records.js';

/** A homologation NF-e for createProcessing; unless the fields give a number, the series' next one is reserved. */
export function nfeDraft(companyId: string, series: number, fields: Partial<NewInvoice> = {}): NewInvoice {
  return { companyId, environment: 'homologation', documentType: 'nfe', series, request: { test: true }, totalAmount: '1.00', ...fields };
}

/** The outbox event of an invoice's transition; its payload names the invoice, then anything else given. */
export function invoiceEvent(companyId: string, invoiceId: string, type: string, payload: Record<string, unknown> = {}): NewOutboxEvent {
  return { companyId, environment: 'homologation', type, aggregateId: invoiceId, payload: { invoice_id: invoiceId, ...payload } };
}
