// OpenAPI pieces of the invoice routes: the request body is the fiscal-model zod schema itself (z.toJSONSchema), so the
// document cannot drift from validation; responses are described here with examples. Request and response examples
// go together by name (invoice-examples.ts says how the example test uses that).
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { invoiceRequestJsonSchema, NFE_REQUEST_EXAMPLE, NFSE_REQUEST_EXAMPLE } from '@talao/fiscal-model';
import {
  EXAMPLE_IDS,
  errorExample,
  fieldErrorExample,
  NFE_RECORD_EXAMPLE,
  NFSE_RECORD_EXAMPLE,
  PROCESSING_RECORD_EXAMPLE,
  REISSUED_RECORD_EXAMPLE,
} from './invoice-examples.js';
import { RATE_LIMIT_HEADERS } from '../openapi/decorators.js';
import { consultSchema, invoicePageSchema, invoiceSchema, nullable, submissionsSchema } from './invoice-schemas.js';

const { $schema: _dialect, ...requestSchema } = invoiceRequestJsonSchema();

/** Request-body examples: fiscal-model's, which the test samples are copies of. */
export const NFE_EXAMPLE = NFE_REQUEST_EXAMPLE;
export const NFSE_EXAMPLE = NFSE_REQUEST_EXAMPLE;

type Example = Record<string, unknown>;
const firstItemOf = (example: Example) => (example['items'] as Example[])[0]!;

/** Request examples of POST /invoices, by name; each has a response example of the same name (invoice-examples.ts). */
export const INVOICE_REQUEST_EXAMPLES = {
  nfe: { summary: 'NF-e, one item (ICMS, PIS, COFINS, IBS/CBS)', value: NFE_EXAMPLE },
  nfse: { summary: 'NFS-e, one service', value: NFSE_EXAMPLE },
  item_total_mismatch: {
    summary: 'amount disagrees with quantity × unit_price (422, ITEM_TOTAL_MISMATCH)',
    value: { ...NFE_EXAMPLE, items: [{ ...firstItemOf(NFE_EXAMPLE), amount: '10.00' }] },
  },
  unknown_field: { summary: 'A field the request does not define (422, FIELD_UNKNOWN)', value: { ...NFE_EXAMPLE, discout: '5.00' } },
  not_implemented: { summary: 'A fiscal document the service does not sign (501)', value: { ...NFE_EXAMPLE, document_type: 'nfce' } },
};

const authorizerErrorSchema = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  description,
  properties: {
    detail: {
      type: 'object',
      required: ['message', 'invoice_id'],
      properties: {
        message: { type: 'string', description: "The authorizer's own message" },
        invoice_id: {
          type: 'string',
          format: 'uuid',
          description:
            'Look the attempt up with GET /invoices/{invoice_id}/submissions; reissue it with POST /invoices/{invoice_id}/reissue',
        },
        code: nullable('string', { description: 'Additive: cStat (NF-e) or the national error code (NFS-e)' }),
        ...extra,
      },
    },
    request_id: { type: 'string' },
  },
});

const errorEnvelope = { $ref: '#/components/schemas/ErrorEnvelope' };
type ResponseOptions = Parameters<typeof ApiResponse>[0] & { status: number; description: string };
/** A documented response with the headers every response carries (X-RateLimit-*, X-Request-Id). */
const Respond = (options: ResponseOptions) => ApiResponse({ ...options, headers: { ...RATE_LIMIT_HEADERS, ...options.headers } });

/** @nestjs/swagger does not export its OpenAPI object types; this is its ResponseObject's `content`. */
type ContentObject = NonNullable<Parameters<typeof ApiResponse>[0]['content']>;
const json = (schema: object, examples?: Record<string, { summary: string; value: unknown }>): ContentObject => ({
  'application/json': { schema: schema as never, ...(examples ? { examples } : {}) },
});

export const IdempotencyKeyHeader = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 characters, scoped to your company and environment, kept 24 h. The same key with the same body answers the first ' +
      'response again (same status and body, header `Idempotent-Replayed: true`; nothing issued or charged twice); another body → 422; ' +
      'while the first call runs → 409. One key per business event, not per HTTP request.',
  });

export const InvoiceRequestBody = () =>
  ApiBody({ schema: requestSchema as never, examples: INVOICE_REQUEST_EXAMPLES, description: 'The sale to issue (NF-e or NFS-e)' });

const REISSUE_409 = {
  summary: 'The attempt was reissued already: detail names the invoice that replaced it',
  value: errorExample({
    message: `Invoice ${EXAMPLE_IDS.rejectedInvoiceId} was already reissued as ${EXAMPLE_IDS.replacementInvoiceId}; an attempt is reissued once (reissue ${EXAMPLE_IDS.replacementInvoiceId} if it failed too)`,
    invoice_id: EXAMPLE_IDS.rejectedInvoiceId,
    replaced_by: EXAMPLE_IDS.replacementInvoiceId,
  }),
};

const NOT_IMPLEMENTED = Respond({
  status: 501,
  description:
    'Not implemented: signing for that document type is not implemented (a Brazilian fiscal document other than nfe and nfse: ' +
    'nfce, cte, cteos, mdfe, nf3e, nfcom, bpe). Any other unknown document_type is a 422',
  content: json(errorEnvelope, {
    not_implemented: {
      summary: 'NFC-e',
      value: errorExample(
        'Signing the NFC-e (consumer invoice, model 65) (document_type nfce) is not implemented; this API issues nfe and nfse',
      ),
    },
  }),
});

/** The outcomes of POST /invoices and reissue, all documented; `examples` of 201 and the errors by request example name. */
export const IssuanceResponses = (kind: 'create' | 'reissue') =>
  applyDecorators(
    ...(kind === 'create' ? [NOT_IMPLEMENTED] : []),
    Respond({
      status: 201,
      description: 'Authorized: the invoice record (access_key, status `issued`, protocol, amount)',
      content: json(
        invoiceSchema,
        kind === 'create'
          ? {
              nfe: { summary: 'NF-e authorized', value: NFE_RECORD_EXAMPLE },
              nfse: { summary: 'NFS-e authorized', value: NFSE_RECORD_EXAMPLE },
            }
          : { rejected: { summary: 'The reissue of a rejected attempt, authorized', value: REISSUED_RECORD_EXAMPLE } },
      ),
    }),
    Respond({
      status: 202,
      description:
        'Additive. Still with the authorizer after the wait window (ISSUE_WAIT_MS): the record with status `processing`. The outcome arrives by ' +
        'webhook (invoice.authorized / invoice.rejected) or by GET on the `Location` header.',
      content: json(invoiceSchema, { processing: { summary: 'Outcome pending', value: PROCESSING_RECORD_EXAMPLE } }),
      headers: { Location: { description: 'GET here for the invoice and the authorizer’s view', schema: { type: 'string' } } },
    }),
    Respond({
      status: 400,
      description:
        'Invalid configuration: the company cannot issue yet. `detail` is a string naming what is missing or invalid (certificate, state registration, address, tax regime, …)',
      content: json(errorEnvelope, {
        not_configured: {
          summary: 'No certificate',
          value: errorExample('The company is not ready to issue: missing certificate (no A1 certificate uploaded)'),
        },
      }),
    }),
    Respond({
      status: 402,
      description:
        'Quota reached: the production quota of the month is used up and the plan has no overage price (homologation is free and unlimited)',
      content: json(errorEnvelope, {
        quota_reached: {
          summary: 'Trial plan used up',
          value: errorExample(
            "The plan's production quota of 50 documents for 2026-11 is used up (50 used or in flight) and the plan has no overage price",
          ),
        },
      }),
    }),
    Respond({
      status: 409,
      description:
        kind === 'create'
          ? 'Operation conflict: the number given is already used; the same Idempotency-Key is still in progress'
          : 'Operation conflict: the invoice is not rejected or failed; it was reissued already (`detail` object naming `replaced_by`); the same Idempotency-Key is still in progress',
      content: json(
        errorEnvelope,
        kind === 'create'
          ? { number_taken: { summary: 'Number already used', value: errorExample('Number 7 of series 1 is already used') } }
          : {
              already_reissued: REISSUE_409,
              not_reissuable: {
                summary: 'An issued invoice',
                value: errorExample('Only rejected or failed invoices can be reissued; this one is issued'),
              },
            },
      ),
    }),
    Respond({
      status: 422,
      description:
        'Validation error: `detail` is the first field error `{ code, field, message, expected, received }`, `errors` lists all (every item code — ' +
        'ITEM_TOTAL_MISMATCH, ITEM_AMOUNT_MISSING, ITEM_DISCOUNT_EXCEEDS_GROSS, ITEM_PRECISION_UNSUPPORTED and the others — is a 422); ' +
        'or the same Idempotency-Key with a different body, or an Idempotency-Key over 255 characters (`detail` a string)',
      content: json(
        errorEnvelope,
        kind === 'create'
          ? {
              item_total_mismatch: {
                summary: 'ITEM_TOTAL_MISMATCH',
                value: fieldErrorExample({
                  code: 'ITEM_TOTAL_MISMATCH',
                  field: 'items[0].amount',
                  message: 'quantity × unit_price = 99.8 rounds to 99.80, not 10.00',
                  expected: '99.80',
                  received: '10.00',
                }),
              },
              unknown_field: {
                summary: 'FIELD_UNKNOWN',
                value: fieldErrorExample({
                  code: 'FIELD_UNKNOWN',
                  field: 'discout',
                  message: 'Unknown field "discout"',
                  expected: 'no such field',
                  received: '5.00',
                }),
              },
            }
          : {
              idempotency_mismatch: {
                summary: 'Key reused with another body',
                value: errorExample('Idempotency-Key was already used with a different request body; use a new key for a new request'),
              },
            },
      ),
    }),
    Respond({
      status: 502,
      description:
        "Authorizer rejected: `detail.message` is the authorizer's own message, `detail.invoice_id` the attempt (see its submissions; reissue it). The number stays a gap",
      content: json(authorizerErrorSchema('Rejected'), {
        rejected_by_authorizer: {
          summary: 'SEFAZ rejection 778',
          value: errorExample({ message: 'Rejeicao: Informado NCM inexistente', code: '778', invoice_id: EXAMPLE_IDS.rejectedInvoiceId }),
        },
      }),
    }),
    Respond({
      status: 503,
      description:
        'Additive. The authorizer stayed unavailable through every retry: the attempt is `failed` (`detail.status`) and can be reissued',
      content: json(authorizerErrorSchema('Failed', { status: { const: 'failed' } }), {
        failed: {
          summary: 'Authorizer unavailable',
          value: errorExample({
            message: 'SEFAZ unavailable: connect ECONNREFUSED',
            code: null,
            invoice_id: EXAMPLE_IDS.rejectedInvoiceId,
            status: 'failed',
          }),
        },
      }),
    }),
  );

/** GET /invoices: the parameters, with the examples of one request each (`issued_nfe` → 200, `page_size_too_large` → 422). */
export const ListQueryParameters = (statuses: readonly string[], maxPageSize: number, defaultPageSize: number) =>
  applyDecorators(
    ApiQuery({
      name: 'document_type',
      required: false,
      enum: ['nfe', 'nfse'],
      examples: { issued_nfe: { summary: 'NF-e only', value: 'nfe' } },
    }),
    ApiQuery({
      name: 'status',
      required: false,
      enum: [...statuses],
      description: 'issued, rejected, cancelled; additive: processing, failed',
      examples: { issued_nfe: { summary: 'Authorized only', value: 'issued' } },
    }),
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', minimum: 1, default: 1 },
      examples: { issued_nfe: { summary: 'First page', value: 1 } },
    }),
    ApiQuery({
      name: 'page_size',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: maxPageSize, default: defaultPageSize },
      examples: {
        issued_nfe: { summary: 'Twenty rows', value: defaultPageSize },
        page_size_too_large: { summary: `Over ${maxPageSize}: 422`, value: maxPageSize + 1 },
      },
    }),
    Respond({
      status: 200,
      description: 'A page of invoices: `total`, `total_pages`, `next_page`, `prev_page`, `data` (additive: `page`, `page_size`)',
      content: json(invoicePageSchema, {
        issued_nfe: {
          summary: 'The authorized NF-e',
          value: {
            total: 1,
            total_pages: 1,
            page: 1,
            page_size: defaultPageSize,
            next_page: null,
            prev_page: null,
            data: [NFE_RECORD_EXAMPLE],
          },
        },
      }),
    }),
    Respond({
      status: 422,
      description:
        'A parameter out of range or malformed, or one the route does not define (FIELD_UNKNOWN): `detail` the first field error, `errors` all',
      content: json(errorEnvelope, {
        page_size_too_large: {
          summary: 'page_size over the maximum',
          value: fieldErrorExample({
            code: 'FIELD_OUT_OF_RANGE',
            field: 'page_size',
            message: `page_size must be an integer from 1 to ${maxPageSize}`,
            expected: `an integer from 1 to ${maxPageSize}`,
            received: String(maxPageSize + 1),
          }),
        },
      }),
    }),
  );

/** GET /invoices/{access_key}: `issued` → 200 (the placeholder key stands for one of yours), `unknown` → 404, `missing_document_type` → 422. */
export const ConsultParameters = () =>
  applyDecorators(
    ApiParam({
      name: 'access_key',
      schema: { type: 'string' },
      description: 'The access key (NF-e 44, NFS-e 50 digits); also accepted: the DPS id of an NFS-e not yet authorized, or the invoice_id',
      examples: {
        issued: { summary: 'An authorized NF-e of yours', value: EXAMPLE_IDS.issuedAccessKey },
        unknown: { summary: 'A key that is not yours: 404, never sent to the authorizer', value: EXAMPLE_IDS.unknownAccessKey },
        missing_document_type: { summary: 'Without document_type: 422', value: EXAMPLE_IDS.issuedAccessKey },
      },
    }),
    ApiQuery({
      name: 'document_type',
      required: true,
      enum: ['nfe', 'nfse'],
      examples: { issued: { summary: 'NF-e', value: 'nfe' }, unknown: { summary: 'NF-e', value: 'nfe' } },
    }),
    Respond({
      status: 200,
      description: 'The invoice record and the authorizer’s view now',
      content: json(consultSchema, {
        issued: {
          summary: 'Authorized, confirmed by SEFAZ',
          value: {
            invoice: NFE_RECORD_EXAMPLE,
            authorizer: {
              available: true,
              outcome: 'authorized',
              code: '100',
              message: 'Autorizado o uso da NF-e',
              protocol: '135260000000001',
              response_xml: '<retConsSitNFe …>',
            },
            amendments: [],
          },
        },
      }),
    }),
    Respond({
      status: 404,
      description: 'No document with that key belongs to the company behind the key',
      content: json(errorEnvelope, { unknown: { summary: 'Not yours, or none', value: errorExample('Invoice not found') } }),
    }),
    Respond({
      status: 422,
      description:
        '`document_type` missing or invalid, or a query parameter the route does not define: `detail` the first field error, `errors` all',
      content: json(errorEnvelope, {
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
      }),
    }),
  );

/** POST /invoices/{invoice_id}/reissue: `rejected` → 201, then `already_reissued` (the same attempt again) → 409, `unknown` → 404. */
export const ReissueParameters = () =>
  ApiParam({
    name: 'invoice_id',
    schema: { type: 'string', format: 'uuid' },
    description: 'The local id of the rejected or failed attempt (a rejected document has no access key)',
    examples: {
      rejected: { summary: 'A rejected attempt of yours', value: EXAMPLE_IDS.rejectedInvoiceId },
      already_reissued: { summary: 'The same attempt again (another Idempotency-Key, or none)', value: EXAMPLE_IDS.rejectedInvoiceId },
      not_reissuable: { summary: 'An authorized invoice', value: EXAMPLE_IDS.issuedInvoiceId },
      unknown: { summary: 'No such invoice of yours', value: EXAMPLE_IDS.unknownInvoiceId },
    },
  });

export const ReissueNotFound = () =>
  Respond({
    status: 404,
    description: 'No invoice with that id belongs to the company behind the key',
    content: json(errorEnvelope, { unknown: { summary: 'Not yours, or none', value: errorExample('Invoice not found') } }),
  });

/** GET /invoices/{invoice_id}/submissions: `issued` → 200, `rejected` → 200 (with `replaced_by` once reissued), `unknown` → 404. */
export const SubmissionsParameters = () =>
  applyDecorators(
    ApiParam({
      name: 'invoice_id',
      schema: { type: 'string', format: 'uuid' },
      examples: {
        issued: { summary: 'An authorized invoice of yours', value: EXAMPLE_IDS.issuedInvoiceId },
        rejected: { summary: 'A rejected attempt that was reissued', value: EXAMPLE_IDS.rejectedInvoiceId },
        unknown: { summary: 'No such invoice of yours', value: EXAMPLE_IDS.unknownInvoiceId },
      },
    }),
    Respond({
      status: 200,
      description: 'Every exchange with the authorizer for the attempt, oldest first, request and response exactly as transmitted',
      content: json(submissionsSchema, {
        issued: {
          summary: 'One authorization',
          value: {
            invoice_id: EXAMPLE_IDS.issuedInvoiceId,
            reissue_of: null,
            replaced_by: null,
            data: [
              {
                attempt: 1,
                operation: 'NFeAutorizacao4',
                endpoint: 'https://homologacao.nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx',
                outcome: 'authorized',
                http_status: 200,
                status_code: '100',
                status_message: 'Autorizado o uso da NF-e',
                request_body: '<soap12:Envelope …>',
                response_body: '<soap:Envelope …>',
                sent_at: '2026-11-22T00:39:59.530Z',
                answered_at: '2026-11-22T00:39:59.802Z',
              },
            ],
          },
        },
        rejected: {
          summary: 'A rejection (778), reissued',
          value: {
            invoice_id: EXAMPLE_IDS.rejectedInvoiceId,
            reissue_of: null,
            replaced_by: EXAMPLE_IDS.replacementInvoiceId,
            data: [
              {
                attempt: 1,
                operation: 'NFeAutorizacao4',
                endpoint: 'https://homologacao.nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx',
                outcome: 'rejected',
                http_status: 200,
                status_code: '778',
                status_message: 'Rejeicao: Informado NCM inexistente',
                request_body: '<soap12:Envelope …>',
                response_body: '<soap:Envelope …>',
                sent_at: '2026-11-22T00:41:10.300Z',
                answered_at: '2026-11-22T00:41:10.512Z',
              },
            ],
          },
        },
      }),
    }),
    Respond({
      status: 404,
      description: 'No invoice with that id belongs to the company behind the key',
      content: json(errorEnvelope, { unknown: { summary: 'Not yours, or none', value: errorExample('Invoice not found') } }),
    }),
  );
