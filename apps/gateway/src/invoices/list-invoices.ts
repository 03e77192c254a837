// GET /invoices: the company's invoices in the credential's environment, newest first, paged.
// `status` takes SPEC.md's values (issued, rejected, cancelled) plus two additive ones: processing (waiting for the
// authorizer) and failed (the authorizer stayed unavailable; can be reissued). Pages: `page` (from 1, default 1) and
// `page_size` (1 to 100, default 20). Any other parameter is refused (422).
import { z } from 'zod';
import type { InvoicesResources } from './invoices-resources.js';
import { presentInvoice } from './invoice-responses.js';
import { parseQuery, type QueryParsed } from './query-parameters.js';

export const INVOICE_STATUSES = ['issued', 'rejected', 'cancelled', 'processing', 'failed'] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const pageNumber = (fallback: number, max?: number) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/)
    .transform(Number)
    .pipe(max ? z.number().int().min(1).max(max) : z.number().int().min(1))
    .optional()
    .transform((v) => v ?? fallback);

export const listQuerySchema = z.strictObject({
  document_type: z.enum(['nfe', 'nfse']).optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  page: pageNumber(1),
  page_size: pageNumber(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
});

export const LIST_PARAMETERS = {
  document_type: { expected: 'one of: nfe, nfse' },
  status: { expected: `one of: ${INVOICE_STATUSES.join(', ')}` },
  page: { expected: 'an integer ≥ 1' },
  page_size: { expected: `an integer from 1 to ${MAX_PAGE_SIZE}` },
};

export type ListQuery = z.output<typeof listQuerySchema>;

/** The query, or field errors in the request body's shape (422). */
export function parseListQuery(query: unknown): QueryParsed<ListQuery> {
  return parseQuery(listQuerySchema, LIST_PARAMETERS, query);
}

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
  const totalPages = Math.ceil(total / query.page_size);
  return {
    total,
    total_pages: totalPages,
    page: query.page,
    page_size: query.page_size,
    next_page: query.page < totalPages ? query.page + 1 : null,
    // Past the end, the previous page is the last one that has rows.
    prev_page: query.page > 1 ? Math.min(query.page - 1, Math.max(totalPages, 1)) : null,
    data: data.map((invoice) => presentInvoice(invoice, replacements.get(invoice.id) ?? null)),
  };
}
