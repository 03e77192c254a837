// JSON Schemas of the invoice records the invoice routes answer (SPEC.md "Invoice record"): the record, a page of
// them, the consult answer and the submission history. The routes' decorators are in invoice-openapi.ts.

import { invalidationSchema } from '../amendments/filed-request-schemas.js';
import { nullable } from '../openapi/schemas.js';

const STATUSES = ['processing', 'issued', 'rejected', 'failed', 'cancelled'];

export const invoiceSchema = {
  type: 'object',
  description:
    'The invoice record (SPEC.md "Invoice record": invoice_id, document_type, access_key, status, protocol, amount; every other field is additive). ' +
    'The same record answers POST /invoices (201, 202), reissue, the list, the consult and an Idempotency-Key replay.',
  required: ['invoice_id', 'document_type', 'status', 'protocol', 'amount'],
  properties: {
    invoice_id: { type: 'string', format: 'uuid', description: 'Local id of the issuance attempt' },
    document_type: { enum: ['nfe', 'nfse'] },
    access_key: {
      type: 'string',
      description:
        'NF-e 44 digits, NFS-e 50 digits. Absent for a rejected attempt (it has neither access key nor protocol) and for an NFS-e ' +
        'before the national environment authorizes it (its declaration is `dps_id`); an NF-e in `processing` or `failed` shows the key it was transmitted under.',
    },
    status: {
      enum: STATUSES,
      description:
        'issued, rejected, cancelled; additive: processing (outcome pending), failed (authorizer unavailable through every retry; reissuable)',
    },
    protocol: nullable('string', { description: 'Government protocol; null until authorized' }),
    amount: {
      type: 'number',
      description:
        'Document total. Written from the stored decimal (2 places), never through binary floating point: 99.80 reaches you as the token 99.80',
    },
    total_amount: {
      type: 'string',
      description: 'Additive: the same total as a decimal string with 2 places, for parsers that read JSON numbers as binary floats',
    },
    dps_id: nullable('string', { description: 'NFS-e only: the declaration (DPS) id' }),
    series: { type: 'integer' },
    number: { type: 'integer' },
    environment: { enum: ['homologation', 'production'] },
    status_code: nullable('string', { description: 'The authorizer’s status code (cStat, or the national environment’s code)' }),
    status_message: nullable('string', { description: 'The authorizer’s own message' }),
    contingency: { type: 'boolean', description: 'Issued through the contingency environment (SVC)' },
    reissue_of: nullable('string', { format: 'uuid', description: 'The rejected or failed attempt this invoice reissues' }),
    replaced_by: nullable('string', {
      format: 'uuid',
      description: 'The invoice that reissued this attempt (an attempt is reissued once)',
    }),
    issued_at: nullable('string', { format: 'date-time' }),
    created_at: { type: 'string', format: 'date-time' },
  },
};

export const invoicePageSchema = {
  type: 'object',
  required: ['total', 'total_pages', 'next_page', 'prev_page', 'data'],
  properties: {
    total: { type: 'integer', description: 'Rows matching the filters' },
    total_pages: { type: 'integer' },
    page: { type: 'integer', description: 'Additive: the page answered' },
    page_size: { type: 'integer', description: 'Additive: the page size used' },
    next_page: nullable('integer'),
    prev_page: nullable('integer'),
    data: { type: 'array', items: invoiceSchema },
  },
};

export const consultSchema = {
  type: 'object',
  properties: {
    invoice: invoiceSchema,
    authorizer: {
      description: "The authorizer's view now; `available: false` (with the reason) when it could not be asked",
      oneOf: [
        {
          type: 'object',
          properties: {
            available: { const: true },
            outcome: { type: 'string' },
            code: { type: 'string' },
            message: { type: 'string' },
            protocol: nullable('string'),
            response_xml: nullable('string', { description: "The authorizer's answer as received" }),
          },
        },
        { type: 'object', properties: { available: { const: false }, reason: { type: 'string' } } },
      ],
    },
    amendments: {
      type: 'array',
      description:
        'Additive: the cancellations and correction letters filed on the document, oldest first (each CC-e replaces the previous one; ' +
        'the document stays `issued` after a correction)',
      items: {
        type: 'object',
        properties: { amendment_id: { type: 'string', format: 'uuid' }, kind: { type: 'string' }, status: { type: 'string' } },
      },
    },
  },
};

export const submissionsSchema = {
  type: 'object',
  properties: {
    invoice_id: { type: 'string', format: 'uuid' },
    reissue_of: nullable('string', { format: 'uuid' }),
    replaced_by: nullable('string', {
      format: 'uuid',
      description: 'The invoice that reissued this attempt; its own submissions are under its id',
    }),
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          attempt: { type: 'integer' },
          operation: { type: 'string', examples: ['NFeAutorizacao4'] },
          endpoint: { type: 'string' },
          outcome: nullable('string', { description: 'authorized | rejected | unavailable | unknown | accepted (consults)' }),
          http_status: nullable('integer'),
          status_code: nullable('string'),
          status_message: nullable('string'),
          request_body: { type: 'string', description: 'Exactly as transmitted (the signed XML inside its envelope)' },
          response_body: nullable('string', { description: 'Exactly as received; null when no answer arrived' }),
          sent_at: { type: 'string', format: 'date-time' },
          answered_at: nullable('string', { format: 'date-time' }),
        },
      },
    },
    invalidations: {
      type: 'array',
      description:
        'Additive: the invalidations (inutilização) of this NF-e’s number, each as GET /invoices/invalidations shows it with its exchanges ' +
        'as transmitted (`data`, the shape of the submissions above). Cancellation and correction-letter events are in `data` itself ' +
        '(operation NFeRecepcaoEvento4, POST /nfse/eventos)',
      items: {
        type: 'object',
        properties: {
          ...invalidationSchema.properties,
          data: { type: 'array', description: 'The invalidation’s exchanges, oldest first' },
        },
      },
    },
  },
};
