// OpenAPI of the received-invoice routes: parameters, schemas and examples (each example is sent to a running gateway
// by e2e/contract/openapi-examples.e2e-spec.ts and must answer the status documented with it).
import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { RATE_LIMIT_HEADERS } from '../openapi/decorators.js';
import { jsonSchemaOf } from '../openapi/schemas.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';

const receivedRowSchema = z.object({
  access_key: z.string().describe('44 digits (NF-e) or 50 (NFS-e)'),
  document_type: z.enum(['nfe', 'nfse']),
  issuer: z.object({ tax_id: z.string(), name: z.string().nullable() }),
  amount: z.number().nullable().describe('Total of the document (decimal, written digit for digit)'),
  issued_at: z.string().nullable(),
  authorized_at: z.string().nullable(),
  protocol: z.string().nullable(),
  situation: z.enum(['authorized', 'cancelled', 'denied']),
  form: z.enum(['summary', 'full']).describe('summary: only the authority’s summary is held; full: the signed XML too (GET …/xml)'),
  events: z.array(
    z.object({
      type: z.string().describe('tpEvento, e.g. 110111 cancellation'),
      sequence: z.number().int(),
      description: z.string().nullable(),
      author_tax_id: z.string().nullable(),
      occurred_at: z.string().nullable(),
      protocol: z.string().nullable(),
    }),
  ),
  collected_at: z.string(),
});

const pageSchema = z.object({
  total: z.number().int(),
  total_pages: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  next_page: z.number().int().nullable(),
  prev_page: z.number().int().nullable(),
  data: z.array(receivedRowSchema),
});

const syncSchema = z.object({ job_id: z.string(), status: z.enum(['queued']) });
const errorSchema = z.object({ detail: z.union([z.string(), z.record(z.string(), z.unknown())]), request_id: z.string() });
const REQUEST_ID = 'b1f0c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

export const ReceivedListDocs = () =>
  applyDecorators(
    ApiQuery({ name: 'document_type', required: false, enum: ['nfe', 'nfse'], examples: { nfe: { summary: 'NF-e only', value: 'nfe' } } }),
    ApiQuery({ name: 'issuer_tax_id', required: false, schema: { type: 'string' }, description: 'CNPJ or CPF of the issuer, digits only' }),
    ApiQuery({
      name: 'issued_from',
      required: false,
      schema: { type: 'string' },
      description: 'Issued on or after: YYYY-MM-DD (Brasília day) or ISO 8601',
      examples: { nfe: { summary: 'From a date', value: '2026-01-01' } },
    }),
    ApiQuery({ name: 'issued_to', required: false, schema: { type: 'string' }, description: 'Issued on or before (inclusive)' }),
    ApiQuery({ name: 'form', required: false, enum: ['summary', 'full'], description: 'Only summaries, or only documents held in full' }),
    ApiQuery({ name: 'situation', required: false, enum: ['authorized', 'cancelled', 'denied'] }),
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    ApiQuery({
      name: 'page_size',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
      examples: {
        nfe: { summary: 'Twenty rows', value: DEFAULT_PAGE_SIZE },
        page_size_too_large: { summary: '422', value: MAX_PAGE_SIZE + 1 },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'A page of received documents (same envelope as GET /invoices)',
      headers: RATE_LIMIT_HEADERS,
      content: {
        'application/json': {
          schema: jsonSchemaOf(pageSchema),
          examples: {
            nfe: {
              summary: 'Received NF-e',
              value: { total: 0, total_pages: 0, page: 1, page_size: 20, next_page: null, prev_page: null, data: [] },
            },
          },
        },
      },
    }),
    ApiResponse({
      status: 422,
      description: 'A bad filter or page (`detail` the first field error, `errors` all of them)',
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorSchema),
          examples: {
            page_size_too_large: {
              summary: 'page_size over the maximum',
              value: {
                detail: {
                  code: 'FIELD_OUT_OF_RANGE',
                  field: 'page_size',
                  message: `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`,
                },
                request_id: REQUEST_ID,
              },
            },
          },
        },
      },
    }),
  );

export const ReceivedSyncDocs = () =>
  applyDecorators(
    ApiResponse({
      status: 202,
      description:
        'Queued (or already queued or running: the same job id); received-sync collects, GET /received-invoices shows the result',
      headers: RATE_LIMIT_HEADERS,
      content: {
        'application/json': {
          schema: jsonSchemaOf(syncSchema),
          examples: { queued: { summary: 'Sync queued', value: { job_id: '6f1c2a9e-3b7d-4c1e-9a0b-2d4e6f8a0c1e', status: 'queued' } } },
        },
      },
    }),
    ApiResponse({
      status: 429,
      description:
        'Inside the authority’s back-off (137 nothing new: an hour; 656 consumo indevido: at least an hour): `Retry-After` in seconds, the authority’s code and reason in `detail`',
      headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorSchema),
          examples: {
            authority_backoff: {
              summary: 'Back-off after 137',
              value: {
                detail:
                  "The authority's distribution asked for a pause until 2026-12-02T15:04:05.000Z: 137 Rejeição: Nenhum documento localizado",
                request_id: REQUEST_ID,
              },
            },
          },
        },
      },
    }),
    ApiResponse({
      status: 409,
      description: 'The company has no certificate',
      content: { 'application/json': { schema: jsonSchemaOf(errorSchema) } },
    }),
  );

const UNCOLLECTED_KEY = '35261212345678000195550010000000011000000010';

export const ReceivedXmlDocs = () =>
  applyDecorators(
    ApiParam({
      name: 'access_key',
      description: 'Access key of a received document',
      examples: { not_collected: { summary: 'A key never collected', value: UNCOLLECTED_KEY } },
    }),
    ApiResponse({
      status: 200,
      description: 'The signed XML (nfeProc) exactly as the authority distributed it',
      content: { 'application/xml': { schema: { type: 'string' } } },
    }),
    ApiResponse({
      status: 404,
      description: 'Not collected, not the caller’s, or only the summary is held (the full XML comes after awareness or confirmation)',
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorSchema),
          examples: {
            not_collected: { summary: 'Not collected', value: { detail: 'Received invoice not found', request_id: REQUEST_ID } },
          },
        },
      },
    }),
  );
