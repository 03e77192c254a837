// OpenAPI pieces shared by the routes that address one document of the caller's (consult, submissions, reissue,
// PDF, cancel, correction): the `{access_key}` parameter, `document_type`, and the answers every such route gives
// alike. Examples go together by name as in invoice-examples.ts.
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { errorEnvelope, json, Respond } from '../openapi/decorators.js';
import { errorExample, fieldErrorExample } from './invoice-examples.js';

type NamedExamples = Record<string, { summary: string; value: unknown }>;

/** The `{access_key}` path parameter, with the value of each named request. */
export const AccessKeyParameter = (description: string, examples: NamedExamples) =>
  ApiParam({ name: 'access_key', schema: { type: 'string' }, description, examples });

/** The required `document_type` query parameter; each named request asks for an NF-e. */
export const DocumentTypeQuery = (...exampleNames: string[]) =>
  ApiQuery({
    name: 'document_type',
    required: true,
    enum: ['nfe', 'nfse'],
    examples: Object.fromEntries(exampleNames.map((name) => [name, { summary: 'NF-e', value: 'nfe' }])),
  });

/** 404 for a document or an attempt that is not the caller's: the `unknown` request's answer. */
export const InvoiceNotFound = (description: string) =>
  Respond({
    status: 404,
    description,
    content: json(errorEnvelope, { unknown: { summary: 'Not yours, or none', value: errorExample('Invoice not found') } }),
  });

/** The 422 answer of a request without `document_type`, named `missing_document_type`. */
export const MISSING_DOCUMENT_TYPE_EXAMPLE = {
  missing_document_type: {
    summary: 'document_type missing',
    value: fieldErrorExample({
      code: 'FIELD_REQUIRED',
      field: 'document_type',
      message: 'document_type is required',
      expected: 'one of: nfe, nfse',
      received: null,
    }),
  },
};
