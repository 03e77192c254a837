// OpenAPI pieces of the invoice routes that read (list, consult, submissions) or point at an attempt (reissue's
// parameters); the issuing routes' pieces are in invoice-openapi.ts. Examples go together by name as there.
import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '../http/pagination.js';
import { errorEnvelope, json, Respond } from '../openapi/decorators.js';
import { firstPageExample, PageSizeQuery } from '../openapi/page-parameters.js';
import { AccessKeyParameter, DocumentTypeQuery, InvoiceNotFound, MISSING_DOCUMENT_TYPE_EXAMPLE } from './document-openapi.js';
import { EXAMPLE_IDS, fieldErrorExample, NFE_RECORD_EXAMPLE } from './invoice-examples.js';
import { consultSchema, invoicePageSchema, submissionsSchema } from './invoice-schemas.js';
/** GET /invoices: the parameters, with the examples of one request each (`issued_nfe` → 200, `page_size_too_large` → 422). */
export const ListQueryParameters = (statuses: readonly string[]) =>
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
    PageSizeQuery('issued_nfe'),
    Respond({
      status: 200,
      description: 'A page of invoices: `total`, `total_pages`, `next_page`, `prev_page`, `data` (additive: `page`, `page_size`)',
      content: json(invoicePageSchema, {
        issued_nfe: {
          summary: 'The authorized NF-e',
          value: firstPageExample([NFE_RECORD_EXAMPLE]),
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
            message: `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`,
            expected: `an integer from 1 to ${MAX_PAGE_SIZE}`,
            received: String(MAX_PAGE_SIZE + 1),
          }),
        },
      }),
    }),
  );
/** GET /invoices/{access_key}: `issued` → 200 (the placeholder key stands for one of yours), `unknown` → 404, `missing_document_type` → 422. */
export const ConsultParameters = () =>
  applyDecorators(
    AccessKeyParameter(
      'The access key (NF-e 44, NFS-e 50 digits); also accepted: the DPS id of an NFS-e not yet authorized, or the invoice_id',
      {
        issued: { summary: 'An authorized NF-e of yours', value: EXAMPLE_IDS.issuedAccessKey },
        unknown: { summary: 'A key that is not yours: 404, never sent to the authorizer', value: EXAMPLE_IDS.unknownAccessKey },
        missing_document_type: { summary: 'Without document_type: 422', value: EXAMPLE_IDS.issuedAccessKey },
      },
    ),
    DocumentTypeQuery('issued', 'unknown'),
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
    InvoiceNotFound('No document with that key belongs to the company behind the key'),
    Respond({
      status: 422,
      description:
        '`document_type` missing or invalid, or a query parameter the route does not define: `detail` the first field error, `errors` all',
      content: json(errorEnvelope, MISSING_DOCUMENT_TYPE_EXAMPLE),
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

const NO_SUCH_INVOICE_ID = 'No invoice with that id belongs to the company behind the key';

export const ReissueNotFound = () => InvoiceNotFound(NO_SUCH_INVOICE_ID);
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
    InvoiceNotFound(NO_SUCH_INVOICE_ID),
  );
