// OpenAPI pieces of the webhook routes: schemas (zod → JSON Schema, inline) and examples. Every example is sent to the
// running gateway by e2e/contract/openapi-examples.e2e-spec.ts (request and response examples go together by name).
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_DELIVERY_STATUSES } from '@talao/persistence';
import { MAX_SECRET_LENGTH, MAX_WEBHOOK_URL_LENGTH, MIN_SECRET_LENGTH, WEBHOOK_EVENTS } from '@talao/webhooks';
import { z } from 'zod';
import { errorExample } from '../invoices/invoice-examples.js';
import { RATE_LIMIT_HEADERS } from '../openapi/decorators.js';
import { jsonSchemaOf, pageSchemaOf } from '../openapi/schemas.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';

const endpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).describe('Empty: every event, including events added later'),
  created_at: z.iso.datetime(),
});

const registrationSchema = z.object({
  url: z.string().max(MAX_WEBHOOK_URL_LENGTH).describe('https URL resolving to public addresses only'),
  secret: z.string().min(MIN_SECRET_LENGTH).max(MAX_SECRET_LENGTH).describe('Signing secret: printable ASCII, no spaces; never returned'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).optional().describe('Event names; [] or absent = every event'),
});

const attemptSchema = z.object({
  number: z.number().int(),
  started_at: z.iso.datetime(),
  duration_ms: z.number().int(),
  result: z.enum(['delivered', 'http_error', 'timeout', 'connection_refused', 'target_refused', 'connection_error']),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe('The first 4 KiB of the response body'),
});

const deliverySchema = z.object({
  id: z.uuid().describe('The Service-Delivery-Id header of every attempt'),
  webhook_id: z.uuid(),
  event: z.enum(WEBHOOK_EVENTS),
  event_id: z.uuid().describe('The `id` of the body: the same in every endpoint’s delivery of the event'),
  invoice_id: z.uuid(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  next_attempt_at: z.iso.datetime().nullable().describe('When pending: the next try'),
  last_attempt_at: z.iso.datetime().nullable(),
  delivered_at: z.iso.datetime().nullable(),
  given_up_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  attempts: z.array(attemptSchema),
});

const deliveryListSchema = pageSchemaOf(deliverySchema);

const ENDPOINT_EXAMPLE = {
  id: '5b2f8c1e-3d4a-4e6f-9a1b-2c3d4e5f6a7b',
  url: 'http://localhost:4000/webhooks/talao',
  events: ['invoice.authorized', 'invoice.rejected'],
  created_at: '2026-11-25T12:00:00.000Z',
};

const DELIVERY_EXAMPLE = {
  id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
  webhook_id: ENDPOINT_EXAMPLE.id,
  event: 'invoice.authorized',
  event_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  invoice_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  status: 'pending',
  attempt_count: 1,
  next_attempt_at: '2026-11-25T12:00:31.000Z',
  last_attempt_at: '2026-11-25T12:00:00.200Z',
  delivered_at: null,
  given_up_at: null,
  created_at: '2026-11-25T12:00:00.120Z',
  attempts: [
    {
      number: 1,
      started_at: '2026-11-25T12:00:00.200Z',
      duration_ms: 35,
      result: 'http_error',
      response_status: 503,
      error: 'HTTP 503',
      response_excerpt: 'upstream unavailable',
    },
  ],
};

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const json = (schema: z.ZodType, examples: Record<string, { summary: string; value: unknown }>) => ({
  'application/json': { schema: jsonSchemaOf(schema), examples },
});
const errorJson = (examples: Record<string, { summary: string; value: unknown }>) => ({
  'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, examples },
});

export const REGISTRATION_LIMITS =
  `url: https (http only to loopback when WEBHOOK_ALLOW_LOOPBACK=true, a local run), at most ${MAX_WEBHOOK_URL_LENGTH} characters, no credentials, ` +
  `resolving to public unicast addresses only (checked again at every connection); secret: ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} printable ASCII ` +
  `characters; events: names from ${WEBHOOK_EVENTS.join(', ')} ([] = all); at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per company and environment.`;

export function CreateWebhookDocs() {
  return applyDecorators(
    ApiBody({
      schema: jsonSchemaOf(registrationSchema, 'input'),
      examples: {
        local_receiver: {
          summary: 'A receiver on the developer’s machine (npm start allows http on loopback)',
          value: { url: ENDPOINT_EXAMPLE.url, secret: '<SIGNING_SECRET>', events: ENDPOINT_EXAMPLE.events },
        },
        unknown_event: {
          summary: 'An unknown event name',
          value: { url: ENDPOINT_EXAMPLE.url, secret: '<SIGNING_SECRET>', events: ['invoice.paid'] },
        },
        private_target: { summary: 'A private address', value: { url: 'https://10.0.0.5/hooks', secret: '<SIGNING_SECRET>', events: [] } },
      },
    }),
    ApiResponse({
      status: 201,
      description: 'Registered; the secret is never returned',
      headers: RATE_LIMIT_HEADERS,
      content: json(endpointSchema, { local_receiver: { summary: 'Registered', value: ENDPOINT_EXAMPLE } }),
    }),
    ApiResponse({
      status: 422,
      description: 'Refused: the detail names the field and why',
      headers: RATE_LIMIT_HEADERS,
      content: errorJson({
        unknown_event: {
          summary: 'Unknown event',
          value: errorExample(`unknown event "invoice.paid"; the events are ${WEBHOOK_EVENTS.join(', ')}`),
        },
        private_target: {
          summary: 'Private target',
          value: errorExample('url must not point to a non-public address: 10.0.0.5 is a private address'),
        },
      }),
    }),
  );
}

export function ListWebhooksDocs() {
  return ApiResponse({
    status: 200,
    description: 'The active endpoints of the company in the key’s environment, oldest first',
    headers: RATE_LIMIT_HEADERS,
    content: json(z.object({ data: z.array(endpointSchema) }), {
      endpoints: { summary: 'One endpoint', value: { data: [ENDPOINT_EXAMPLE] } },
    }),
  });
}

/** The `{id}` of a webhook or a delivery; `not_found` names one that is not the caller's. */
const IdParameter = () =>
  ApiParam({
    name: 'id',
    schema: { type: 'string', format: 'uuid' },
    examples: { not_found: { summary: 'Not one of yours', value: UNKNOWN_ID } },
  });

const notFound = (what: string) =>
  ApiResponse({
    status: 404,
    description: `No such ${what} for this company and environment`,
    headers: RATE_LIMIT_HEADERS,
    content: errorJson({ not_found: { summary: 'Not found', value: errorExample(`${what[0]!.toUpperCase()}${what.slice(1)} not found`) } }),
  });

export function DeleteWebhookDocs() {
  return applyDecorators(
    IdParameter(),
    ApiResponse({
      status: 204,
      description: 'Deleted: no body. Deliveries still waiting are cancelled; the log stays',
      headers: RATE_LIMIT_HEADERS,
    }),
    notFound('webhook'),
  );
}

export function ListDeliveriesDocs() {
  return applyDecorators(
    ApiQuery({
      name: 'status',
      required: false,
      enum: [...WEBHOOK_DELIVERY_STATUSES],
      description: '`given_up`: the deliveries given up on',
    }),
    ApiQuery({ name: 'event', required: false, enum: [...WEBHOOK_EVENTS] }),
    ApiQuery({ name: 'webhook_id', required: false, schema: { type: 'string', format: 'uuid' } }),
    ApiQuery({ name: 'invoice_id', required: false, schema: { type: 'string', format: 'uuid' } }),
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    ApiQuery({
      name: 'page_size',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    }),
    ApiResponse({
      status: 200,
      description: 'Deliveries, newest first, each with its attempts',
      headers: RATE_LIMIT_HEADERS,
      content: json(deliveryListSchema, {
        deliveries: {
          summary: 'A delivery waiting for its second try',
          value: {
            total: 1,
            total_pages: 1,
            page: 1,
            page_size: DEFAULT_PAGE_SIZE,
            next_page: null,
            prev_page: null,
            data: [DELIVERY_EXAMPLE],
          },
        },
      }),
    }),
  );
}

export function RetryDeliveryDocs() {
  return applyDecorators(
    IdParameter(),
    ApiResponse({
      status: 202,
      description:
        'Queued: the next attempt is made now (a delivered or given-up delivery is sent again, with the same Service-Delivery-Id)',
      headers: RATE_LIMIT_HEADERS,
      content: json(deliverySchema.pick({ id: true, status: true, next_attempt_at: true }), {
        queued: { summary: 'Queued', value: { id: DELIVERY_EXAMPLE.id, status: 'pending', next_attempt_at: '2026-11-25T12:05:00.000Z' } },
      }),
    }),
    notFound('delivery'),
  );
}
