// OpenAPI pieces of POST and GET /invoices/invalidations. Request and response examples go together by name; the
// examples use series 900 (nothing issued there) so the `invalidated` example starts at the sequence's next number.
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { errorExample } from '../invoices/invoice-examples.js';
import { errorEnvelope, json, Respond } from '../openapi/decorators.js';
import { firstPageExample } from '../openapi/page-parameters.js';
import { nullable } from '../openapi/schemas.js';
import { OutcomePending, pending } from './amendments-openapi.js';
import { invalidationSchema } from './filed-request-schemas.js';

const pageSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    total_pages: { type: 'integer' },
    page: { type: 'integer' },
    page_size: { type: 'integer' },
    next_page: nullable('integer'),
    prev_page: nullable('integer'),
    data: { type: 'array', items: invalidationSchema },
  },
};

const REASON = 'Numeracao pulada por falha no sistema de faturamento';
const RANGE_EXAMPLE = {
  invalidation_id: '2f1e0d9c-8b7a-4f6e-9d5c-4b3a29180716',
  document_type: 'nfe',
  series: 900,
  number_start: 1,
  number_end: 5,
  reason: REASON,
  status: 'registered',
  protocol: '135260000000077',
  status_code: '102',
  status_message: 'Inutilização de número homologado',
  registered_at: '2026-11-22T02:00:01.000Z',
  created_at: '2026-11-22T02:00:00.000Z',
};

/** POST: `invalidated` → 201, `reached_authorizer` → 409, `short_reason` → 422. */
export const InvalidateOpenApi = () =>
  applyDecorators(
    ApiBody({
      schema: {
        type: 'object',
        required: ['series', 'number_start', 'number_end', 'reason'],
        additionalProperties: false,
        properties: {
          series: { type: 'integer', minimum: 0, maximum: 999 },
          number_start: { type: 'integer', minimum: 1 },
          number_end: { type: 'integer', minimum: 1, description: 'Inclusive; at most 10000 numbers per range' },
          reason: { type: 'string', minLength: 15, maxLength: 255 },
          document_type: { type: 'string', enum: ['nfe', 'nfse'], description: 'Optional; `nfse` answers 409 (NF-e only)' },
        },
      } as never,
      examples: {
        invalidated: { summary: 'Numbers ahead of the sequence', value: { series: 900, number_start: 1, number_end: 5, reason: REASON } },
        reached_authorizer: { summary: 'A number that was issued', value: { series: 1, number_start: 1, number_end: 1, reason: REASON } },
        short_reason: { summary: 'A reason under 15 characters', value: { series: 900, number_start: 6, number_end: 6, reason: 'pulado' } },
      },
    }),
    Respond({
      status: 201,
      description: 'Registered by SEFAZ: the range with its protocol',
      content: json(invalidationSchema, { invalidated: { summary: 'Range invalidated', value: RANGE_EXAMPLE } }),
    }),
    OutcomePending(
      'Additive. Still with SEFAZ after AMENDMENT_WAIT_MS: `status: pending`; see GET /invoices/invalidations',
      invalidationSchema,
      pending(RANGE_EXAMPLE),
    ),
    Respond({
      status: 409,
      description:
        'Conflict, checked on the service’s own records without contacting the authorizer: numbers that reached the authorizer ' +
        '(NUMBERS_AT_AUTHORIZER, `detail.numbers` with their invoice ids), a range already invalidated (ALREADY_INVALIDATED), an NFS-e ' +
        '(NFE_ONLY), or the same Idempotency-Key in progress',
      content: json(errorEnvelope, {
        reached_authorizer: {
          summary: 'Number 1 was issued',
          value: errorExample({
            code: 'NUMBERS_AT_AUTHORIZER',
            message:
              'Numbers of the range reached the authorizer and cannot be invalidated: 1 (invoice 0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f, issued)',
            numbers: [{ number: 1, invoice_id: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f', status: 'issued' }],
          }),
        },
      }),
    }),
    Respond({
      status: 422,
      description:
        'Validation error (`detail` `{ code, field, message }`), or a range that starts beyond the next number (RANGE_AHEAD_OF_SEQUENCE)',
      content: json(errorEnvelope, {
        short_reason: {
          summary: 'Reason too short',
          value: errorExample({
            code: 'FIELD_INVALID',
            field: 'reason',
            message: 'reason: Too small: expected string to have >=15 characters',
          }),
        },
      }),
    }),
    Respond({
      status: 502,
      description: 'SEFAZ refused (241, 256, …): `detail.message` and `detail.code` are its own',
      content: json(errorEnvelope, {
        refused: {
          summary: 'SEFAZ 241',
          value: errorExample({
            message: 'Rejeição: Um número da faixa já foi utilizado',
            code: '241',
            invalidation_id: RANGE_EXAMPLE.invalidation_id,
          }),
        },
      }),
    }),
  );

/** GET: no request examples; called once, answers 200 with the page. */
export const ListInvalidationsOpenApi = () =>
  applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 } }),
    ApiQuery({ name: 'page_size', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } }),
    Respond({
      status: 200,
      description: 'The ranges reported, newest first',
      content: json(pageSchema, {
        ranges: {
          summary: 'One range',
          value: firstPageExample([RANGE_EXAMPLE]),
        },
      }),
    }),
  );
