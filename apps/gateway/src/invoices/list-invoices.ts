// GET /invoices: the company's invoices in the credential's environment, newest first, paged.
// `status` takes SPEC.md's values (issued, rejected, cancelled) plus two additive ones: processing (waiting for the
// authorizer) and failed (the authorizer stayed unavailable; can be reissued). Pages: `page` (from 1, default 1) and
// `page_size` (1 to 100, default 20). Any other parameter is refused (422).
import { z } from 'zod';
import { pageEnvelope } from '../http/pagination.js';
import { listQuery } from '../http/query-validation.js';
import type { InvoicesResources } from './invoices-resources.js';
import { presentInvoice } from './invoice-responses.js';

export const INVOICE_STATUSES = ['issued', 'rejected', 'cancelled', 'processing', 'failed'] as const;

const invoiceQuery = listQuery(
  { document_type: z.enum(['nfe', 'nfse']).optional(), status: z.enum(INVOICE_STATUSES).optional() },
  { document_type: { expected: 'one of: nfe, nfse' }, status: { expected: `one of: ${INVOICE_STATUSES.join(', ')}` } },
);

export type ListQuery = z.output<typeof invoiceQuery.schema>;

/** The query, or field errors in the request body's shape (422). */
export const parseListQuery = invoiceQuery.parse;

export async function listInvoices(
  resources: InvoicesResources,
  scope: { companyId: string; environment: 'homologation' | 'production' },
  query: ListQuery,
) {
  const { total, data } = await resources.invoices.listForCompany({
    companyId: scope.companyId,
    environment: scope.environment,
    ...(query.document_type ? { documentType: query.document_type } : {}),
    ...(query.status ? { statuses: [query.status] } : {}),
    page: query.page,
    pageSize: query.page_size,
  });
  // Only rejected and failed attempts can have been reissued: one lookup for the page's rows.
  const replacements = await resources.invoices.findReplacements(
    data.filter((i) => i.status === 'rejected' || i.status === 'failed').map((i) => i.id),
  );
  return pageEnvelope(
    total,
    query,
    data.map((invoice) => presentInvoice(invoice, replacements.get(invoice.id) ?? null)),
  );
}
