// Query strings as the routes read them (../invoices/query-parameters.ts parses them strictly): a list's paging
// parameters beside its own filters, and the 422 of a refused query.
import { HttpException } from '@nestjs/common';
import { z } from 'zod';
import { parseQuery, type QueryParameter, type QueryParsed } from '../invoices/query-parameters.js';
import { PAGE_PARAMETERS, PAGE_QUERY_FIELDS } from './pagination.js';

/** A list route's query: its own `filters`, each with what it expects (for the field error), then `page` and `page_size`. */
export function listQuery<F extends z.ZodRawShape>(filters: F, parameters: Record<keyof F, QueryParameter>) {
  const schema = z.strictObject({ ...filters, ...PAGE_QUERY_FIELDS });
  const known = { ...parameters, ...PAGE_PARAMETERS };
  return { schema, parse: (query: unknown) => parseQuery(schema, known, query) };
}

/** The query's value; a refused one answers 422, the first field error as `detail` and all of them as `errors` (as a body's). */
export function validQuery<T>(parsed: QueryParsed<T>): T {
  if (!parsed.ok) throw new HttpException({ detail: parsed.errors[0], errors: parsed.errors }, 422);
  return parsed.value;
}
