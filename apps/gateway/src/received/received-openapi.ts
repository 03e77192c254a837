// OpenAPI of the received-invoice routes: parameters, schemas and examples (each example is sent to a running gateway
// by e2e/contract/openapi-examples.e2e-spec.ts and must answer the status documented with it).
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { MANIFESTATION_CODES, MANIFESTATION_STATES } from '@talao/received-invoices/manifest';
import { z } from 'zod';
import { RATE_LIMIT_HEADERS } from '../openapi/decorators.js';
import { firstPageExample, PageSizeQuery } from '../openapi/page-parameters.js';
import { jsonSchemaOf, pageSchemaOf } from '../openapi/schemas.js';
import { MAX_PAGE_SIZE } from '../http/pagination.js';

function manifestationSchema() {
  return z.object({
    manifestation_id: z.string(),
    manifestation: z.enum(MANIFESTATION_CODES),
    sequence: z.number().int().describe('nSeqEvento: 1, or 2 for a correction with the same code'),
    justification: z.string().nullable(),
    status: z.enum(['pending', 'registered', 'rejected']),
    protocol: z.string().nullable(),
    status_code: z.string().nullable(),
    status_message: z.string().nullable(),
    registered_at: z.string().nullable(),
    filed_at: z.string(),
  });
}

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
  manifestation: z
    .object({
      state: z
        .enum(MANIFESTATION_STATES)
        .describe('The latest registered conclusive event, awareness, none, or deemed_confirmed (deadline passed)'),
      awaiting_conclusive: z.boolean().describe('No conclusive event yet and the deadline still open'),
      deadlines: z
        .object({
          awareness: z.string().describe('210210 until (10 days after authorization)'),
          conclusive: z.string().describe('210200/210220/210240 until (90 days; 180 for NF-e authorized before 2026-06-01)'),
          correction: z.string().nullable().describe('The one correction of the conclusive event in force until (30 days after it)'),
        })
        .nullable(),
      history: z.array(manifestationSchema()),
    })
    .nullable()
    .describe('NF-e only (null on an NFS-e)'),
  collected_at: z.string(),
});

const pageSchema = pageSchemaOf(receivedRowSchema);

const syncSchema = z.object({ job_id: z.string(), status: z.enum(['queued']) });
const errorSchema = z.object({ detail: z.union([z.string(), z.record(z.string(), z.unknown())]), request_id: z.string() });
const REQUEST_ID = 'b1f0c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

type Examples = Record<string, { summary: string; value: unknown }>;

/** A date filter: a calendar day (YYYY-MM-DD, Brasília time) or an ISO 8601 instant, as list-received.ts reads it. */
const DateQuery = (name: string, description: string, examples?: Examples) =>
  ApiQuery({ name, required: false, schema: { type: 'string' }, description, ...(examples && { examples }) });

export const ReceivedListDocs = () =>
  applyDecorators(
    ApiQuery({ name: 'document_type', required: false, enum: ['nfe', 'nfse'], examples: { nfe: { summary: 'NF-e only', value: 'nfe' } } }),
    ApiQuery({ name: 'issuer_tax_id', required: false, schema: { type: 'string' }, description: 'CNPJ or CPF of the issuer, digits only' }),
    DateQuery('issued_from', 'Issued on or after: YYYY-MM-DD (Brasília day) or ISO 8601', {
      nfe: { summary: 'From a date', value: '2026-01-01' },
    }),
    DateQuery('issued_to', 'Issued on or before (inclusive)'),
    ApiQuery({ name: 'form', required: false, enum: ['summary', 'full'], description: 'Only summaries, or only documents held in full' }),
    ApiQuery({ name: 'situation', required: false, enum: ['authorized', 'cancelled', 'denied'] }),
    ApiQuery({
      name: 'manifestation_state',
      required: false,
      enum: [...MANIFESTATION_STATES],
      description:
        'NF-e whose manifestation stands so (the latest registered conclusive event counts; deemed_confirmed: none and the deadline passed)',
      examples: { awaiting: { summary: 'Only awareness so far', value: 'awareness' } },
    }),
    ApiQuery({
      name: 'awaiting_conclusive',
      required: false,
      enum: ['true', 'false'],
      description: 'NF-e with no conclusive event yet and the deadline still open (true), or the others (false)',
      examples: { awaiting: { summary: 'Still to answer', value: 'true' } },
    }),
    DateQuery(
      'deadline_before',
      'NF-e awaiting a conclusive event whose deadline ends before this date (YYYY-MM-DD, Brasília day) or instant',
      { awaiting: { summary: 'Due within a week', value: '2026-12-10' } },
    ),
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    PageSizeQuery('nfe'),
    ApiResponse({
      status: 200,
      description: 'A page of received documents (same envelope as GET /invoices)',
      headers: RATE_LIMIT_HEADERS,
      content: {
        'application/json': {
          schema: jsonSchemaOf(pageSchema),
          examples: {
            nfe: { summary: 'Received NF-e', value: firstPageExample([]) },
            awaiting: { summary: 'NF-e still awaiting a conclusive manifestation', value: firstPageExample([]) },
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
            summary_only: {
              summary: 'Only the summary is held',
              value: {
                detail:
                  'Only the summary of this received invoice is held: its full XML comes after awareness (210210), confirmation (210200) or operation not performed (210240)',
                request_id: REQUEST_ID,
              },
            },
          },
        },
      },
    }),
  );

const manifestationAnswerSchema = z.object({
  access_key: z.string(),
  document_type: z.enum(['nfe']),
  state: z.enum(MANIFESTATION_STATES),
  awaiting_conclusive: z.boolean(),
  form: z.enum(['summary', 'full']).describe('full once the signed XML was fetched (after 210210, 210200 or 210240)'),
  manifestation: manifestationSchema(),
});

export const ManifestationDocs = () =>
  applyDecorators(
    ApiParam({
      name: 'access_key',
      description: 'Access key of a received NF-e (44 digits)',
      examples: {
        not_collected: { summary: 'A key never collected', value: UNCOLLECTED_KEY },
        justification_missing: { summary: 'Any key: the body is checked first', value: UNCOLLECTED_KEY },
      },
    }),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: ['manifestation'],
        additionalProperties: false,
        properties: {
          manifestation: { type: 'string', enum: [...MANIFESTATION_CODES] },
          justification: { type: 'string', minLength: 15, maxLength: 255, description: '210240 only, and required there' },
        },
      },
      examples: {
        not_collected: { summary: 'Awareness (210210)', value: { manifestation: '210210' } },
        justification_missing: { summary: '210240 without its justification', value: { manifestation: '210240' } },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'Registered by the national environment (its protocol); `form` full once the signed XML was fetched',
      content: {
        'application/json': {
          schema: jsonSchemaOf(manifestationAnswerSchema),
          examples: {
            confirmed: {
              summary: 'Confirmation registered',
              value: {
                access_key: '35261211444777000161550010000000071123456785',
                document_type: 'nfe',
                state: 'confirmed',
                awaiting_conclusive: false,
                form: 'full',
                manifestation: {
                  manifestation_id: '0b8a6a3e-8f5e-4f55-9d8b-3c1f0f3c2a11',
                  manifestation: '210200',
                  sequence: 1,
                  justification: null,
                  status: 'registered',
                  protocol: '891260000000123',
                  status_code: '135',
                  status_message: 'Evento registrado e vinculado a NF-e',
                  registered_at: '2026-12-03T12:00:01.000Z',
                  filed_at: '2026-12-03T12:00:00.000Z',
                },
              },
            },
          },
        },
      },
    }),
    ApiResponse({
      status: 202,
      description: 'Filed, not decided within MANIFESTATION_WAIT_MS: GET /received-invoices shows the outcome',
      content: { 'application/json': { schema: jsonSchemaOf(manifestationAnswerSchema) } },
    }),
    ApiResponse({
      status: 404,
      description: 'Not collected, or not the caller’s',
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorSchema),
          examples: {
            not_collected: { summary: 'Not collected', value: { detail: 'Received invoice not found', request_id: REQUEST_ID } },
          },
        },
      },
    }),
    ApiResponse({
      status: 409,
      description:
        'Refused before the authorizer, with the authority’s code and message: 596 past the deadline (`deadline`), 655 awareness after a ' +
        'conclusive event, 573 a third conclusive event or a repeated awareness, 650/651 on a cancelled NF-e, 580 on a denied one; ' +
        'NFE_ONLY, MANIFESTATION_IN_PROGRESS',
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorSchema),
          examples: {
            late: {
              summary: 'Past the conclusive deadline',
              value: {
                detail: {
                  code: '596',
                  message: 'Rejeição: Evento apresentado fora do prazo: 90 dias',
                  deadline: '2026-09-01T12:00:00.000Z',
                },
                request_id: REQUEST_ID,
              },
            },
          },
        },
      },
    }),
    ApiResponse({
      status: 422,
      description: 'A bad body: unknown code, justification missing (210240), given to another code, or not 15 to 255 characters',
      content: {
        'application/json': {
          schema: jsonSchemaOf(errorSchema),
          examples: {
            justification_missing: {
              summary: '210240 without justification',
              value: {
                detail: {
                  code: 'FIELD_INVALID',
                  field: 'justification',
                  message: 'justification is required for 210240 (operation not performed)',
                },
                request_id: REQUEST_ID,
              },
            },
          },
        },
      },
    }),
    ApiResponse({
      status: 502,
      description: 'The national environment refused the event: its message and code in `detail`',
      content: { 'application/json': { schema: jsonSchemaOf(errorSchema) } },
    }),
  );
