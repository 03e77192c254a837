// GET /invoices: the company's invoices in the credential's environment, newest first, paged.
// `status` takes the seed's values (issued, rejected, cancelled) plus two additive ones: processing (waiting for the
// authorizer) and failed (the authorizer stayed unavailable; can be reissued).
import { z } from 'zod';
import type { FieldError } from '@talao/fiscal-model';
import type { InvoicesResources } from './invoices-resources.js';
import { presentInvoice } from './invoice-responses.js';

export const INVOICE_STATUSES = ['issued', 'rejected', 'cancelled', 'processing', 'failed'] as const;
export const MAX_PAGE_SIZE = 100;

const pageNumber = (fallback: number, max?: number) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, 'must be a positive integer')
    .transform(Number)
    .pipe(max ? z.number().int().min(1).max(max) : z.number().int().min(1))
    .optional()
    .transform((v) => v ?? fallback);

export const listQuerySchema = z.object({
  document_type: z.enum(['nfe', 'nfse']).optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  page: pageNumber(1),
  page_size: pageNumber(20, MAX_PAGE_SIZE),
});

export type ListQuery = z.output<typeof listQuerySchema>;

/** The query, or field errors in the fiscal-model shape (422). */
export function parseListQuery(query: unknown): { ok: true; value: ListQuery } | { ok: false; errors: FieldError[] } {
  const parsed = listQuerySchema.safeParse(query ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => {
      const field = issue.path.join('.');
      const received = (query as Record<string, unknown> | undefined)?.[String(issue.path[0])];
      const error: FieldError = {
        code: issue.code === 'too_big' || issue.code === 'too_small' ? 'FIELD_OUT_OF_RANGE' : 'FIELD_INVALID',
        field,
        message: `${field} ${issue.message}`,
        expected: field === 'page_size' ? `an integer from 1 to ${MAX_PAGE_SIZE}` : field === 'page' ? 'an integer ≥ 1' : issue.message,
        received: received === undefined ? null : String(received),
      };
      return error;
    }),
  };
}

export async function listInvoices(resources: InvoicesResources, scope: { companyId: string; environment: 'homologation' | 'production' }, query: ListQuery) {
  const { total, data } = await resources.invoices.listForCompany({
    companyId: scope.companyId,
    environment: scope.environment,
    ...(query.document_type ? { documentType: query.document_type } : {}),
    ...(query.status ? { statuses: [query.status] } : {}),
    page: query.page,
    pageSize: query.page_size,
  });
  const totalPages = Math.ceil(total / query.page_size);
  return {
    total,
    total_pages: totalPages,
    page: query.page,
    page_size: query.page_size,
    next_page: query.page < totalPages ? query.page + 1 : null,
    prev_page: query.page > 1 ? Math.min(query.page - 1, Math.max(totalPages, 1)) : null,
    data: data.map(presentInvoice),
  };
}
