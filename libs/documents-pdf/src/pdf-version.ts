// Which invoices have a PDF and which version of it is current — pure, so the gateway (which never loads a browser)
// and the renderer compute the same answer. The authorized XML never changes; what the PDF prints besides it does:
// the status (a cancelled document is marked CANCELADA) and the events recorded later (a correction letter). Those
// change the invoice row, so its status and updated_at are the version, next to the layout revision (a layout change
// renders every PDF again on its next request).
import type { InvoiceRecord } from '@talao/persistence';
import { documentVersion } from '@talao/rendering/version';

/** What decides whether an invoice has a PDF (the gateway reads whether the XML exists, not the XML). */
export interface PrintableInvoice {
  readonly status: InvoiceRecord['status'];
  readonly hasAuthorizedXml: boolean;
}

/** The printed status: the rendering's vocabulary for the invoice's. */
export function printedStatus(invoice: Pick<InvoiceRecord, 'status'>): 'authorized' | 'cancelled' {
  return invoice.status === 'cancelled' ? 'cancelled' : 'authorized';
}

/** For example `r2.authorized.mi4x8k2a` (updated_at in base 36 ms): safe in an ETag, a storage key and a jobId. */
export function pdfVersionOf(invoice: Pick<InvoiceRecord, 'status' | 'updatedAt'>): string {
  return `${documentVersion({ status: printedStatus(invoice) })}.${invoice.updatedAt.getTime().toString(36)}`;
}

/**
 * Why the invoice has no PDF (a sentence for a 409's `detail`), or undefined when it has one. Only an authorized or
 * cancelled document is printed; a rejected or failed attempt never was a fiscal document.
 */
export function unprintableReason(invoice: PrintableInvoice): string | undefined {
  switch (invoice.status) {
    case 'issued':
    case 'cancelled':
      return invoice.hasAuthorizedXml ? undefined : 'the authorized XML of this invoice is not stored, so it cannot be printed';
    case 'processing':
      return 'the invoice is still being processed by the authorizer: it has a PDF once authorized';
    default:
      return `the invoice was not authorized (status ${invoice.status}): only authorized or cancelled documents have a PDF`;
  }
}
