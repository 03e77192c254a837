// What a route that reads one document of the caller's (GET /invoices/{access_key} and its PDF) answers for: the scope
// the document must be found in (the API key's company and environment, and the `document_type` asked for), how the
// `{access_key}` finds it, and the query, read strictly (a parameter the route does not define answers 422).
import { createParamDecorator, HttpException, type ExecutionContext } from '@nestjs/common';
import { isUuid } from '@talao/persistence';
import { z } from 'zod';
import type { Caller, GatewayRequest } from '../http/gateway-request.js';
import { validQuery } from '../http/query-validation.js';
import { parseQuery, type QueryParameter, type QueryParsed } from './query-parameters.js';

/** NF-e 44 or NFS-e 50 digits, or the DPS id of an NFS-e the national environment has not authorized yet. */
const DOCUMENT_KEY = /^(?:[0-9]{44}|[0-9]{50}|DPS[0-9]{42})$/;

/** How a key finds its document: by invoice id, or by access key (an NFS-e's DPS id until it is authorized). */
export type DocumentLookup = { id: string } | { accessKey: string };

type DocumentType = 'nfe' | 'nfse';

/** A document route's query: `document_type` (required), then the route's own parameters, each with what it expects. */
export function documentQuery<F extends z.ZodRawShape>(fields: F, parameters: Record<keyof F, QueryParameter>) {
  const schema = z.strictObject({ document_type: z.enum(['nfe', 'nfse']), ...fields });
  const known = { document_type: { expected: 'one of: nfe, nfse' }, ...parameters };
  return { schema, parse: (query: unknown) => parseQuery(schema, known, query) };
}

export interface DocumentRequest<Q extends { document_type: DocumentType } = { document_type: DocumentType }> {
  readonly scope: { readonly companyId: string; readonly environment: Caller['environment']; readonly documentType: DocumentType };
  /** Undefined for a key of neither form: it finds nothing, and the route answers 404 as for another company's key. */
  readonly lookup: DocumentLookup | undefined;
  readonly query: Q;
}

type QueryReader = { parse(query: unknown): QueryParsed<{ document_type: DocumentType }> };

/** Only on routes behind ApiKeyGuard with an `{access_key}` parameter; `query` is the route's documentQuery. */
export const DocumentRequest = createParamDecorator((query: QueryReader, context: ExecutionContext): DocumentRequest => {
  const req = context.switchToHttp().getRequest<GatewayRequest & { params: Record<string, string>; query: unknown }>();
  if (!req.authentication?.ok) throw new HttpException({ detail: 'Missing API key' }, 401);
  const { caller } = req.authentication;
  const read = validQuery(query.parse(req.query));
  const key = req.params['access_key'] ?? '';
  return {
    scope: { companyId: caller.company.id, environment: caller.environment, documentType: read.document_type },
    lookup: isUuid(key) ? { id: key } : DOCUMENT_KEY.test(key) ? { accessKey: key } : undefined,
    query: read,
  };
});
