// Every list of the API pages the same way (GET /invoices's rules, SPEC.md): `page` from 1 (default 1), `page_size`
// 1 to 100 (default 20); the envelope `total`, `total_pages`, `next_page`, `prev_page`, `data`, plus the additive
// `page` and `page_size`. Past the end, `prev_page` is the last page that has rows.
import { z } from 'zod';

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

/** The paging fields of a list's query schema (spread into its `z.strictObject`). */
export const PAGE_QUERY_FIELDS = { page: pageNumber(1), page_size: pageNumber(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };

/** What a client is told when a paging parameter is wrong (parseQuery's parameter table). */
export const PAGE_PARAMETERS = {
  page: { expected: 'an integer ≥ 1' },
  page_size: { expected: `an integer from 1 to ${MAX_PAGE_SIZE}` },
};

export interface PageRequest {
  page: number;
  page_size: number;
}

/** The rows to skip for the page. */
export const pageOffset = ({ page, page_size: pageSize }: PageRequest) => (page - 1) * pageSize;

/** The list envelope around a page of presented rows. */
export function pageEnvelope<T>(total: number, { page, page_size: pageSize }: PageRequest, data: T[]) {
  const totalPages = Math.ceil(total / pageSize);
  return {
    total,
    total_pages: totalPages,
    page,
    page_size: pageSize,
    next_page: page < totalPages ? page + 1 : null,
    prev_page: page > 1 ? Math.min(page - 1, Math.max(totalPages, 1)) : null,
    data,
  };
}
