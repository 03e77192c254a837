import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import { ref, type schemas } from './schemas.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'Unauthorized: missing, malformed, unknown, expired or revoked credential, or a key of context `sdk` (`WWW-Authenticate: Bearer`)',
  404: 'Not found (or not the caller’s)',
  409: 'Conflict with the current state',
  413: 'Request body over the limit (1 MiB by default)',
  415: 'Content-Type is not application/json',
  422: 'Invalid request: malformed JSON, or failed validation (`detail` the first field error, `errors` all of them)',
  429: 'Rate limited: too many calls for the key in the minute; `Retry-After` in seconds; `detail` is a string',
  503: 'A dependency is unavailable',
};

const REQUEST_ID = 'b1f0c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

/** One example per error status, named after the status (never a request example's name). */
const ERROR_EXAMPLES: Record<number, { name: string; detail: unknown }> = {
  401: { name: 'unauthorized', detail: 'Missing API key: send Authorization: Bearer <api key>' },
  404: { name: 'not_found', detail: 'Not found' },
  409: { name: 'conflict', detail: 'A request with this Idempotency-Key is still being processed; retry after it finishes' },
  413: { name: 'too_large', detail: 'The request body exceeds 1 MiB' },
  415: { name: 'not_json', detail: 'Content-Type must be application/json' },
  422: {
    name: 'invalid',
    detail: {
      code: 'FIELD_UNKNOWN',
      field: 'statuss',
      message: 'Unknown query parameter "statuss"',
      expected: 'one of: document_type, status, page, page_size',
      received: 'issued',
    },
  },
  429: { name: 'rate_limited', detail: 'Rate limit of 60 requests per minute exceeded; retry in 12 s' },
  503: { name: 'unavailable', detail: 'Service unavailable' },
};

function errorExamples(status: number) {
  const example = ERROR_EXAMPLES[status];
  if (!example) return {};
  const body = {
    detail: example.detail,
    ...(typeof example.detail === 'object' ? { errors: [example.detail] } : {}),
    request_id: REQUEST_ID,
  };
  return { [example.name]: { summary: ERROR_DESCRIPTIONS[status]!.split(':')[0]!, value: body } };
}

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this operation and key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets (epoch seconds)', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'The request id (yours when sane, else generated)', schema: { type: 'string' } },
};

type Examples = Record<string, { summary: string; value: unknown }>;

type ResponseOptions = Parameters<typeof ApiResponse>[0] & { status: number; description: string };
/** A documented response with the headers every response carries (X-RateLimit-*, X-Request-Id). */
export const Respond = (options: ResponseOptions) => ApiResponse({ ...options, headers: { ...RATE_LIMIT_HEADERS, ...options.headers } });

/** @nestjs/swagger does not export its OpenAPI object types; this is its ResponseObject's `content`. */
export type ContentObject = NonNullable<Parameters<typeof ApiResponse>[0]['content']>;
/** A JSON response body: its schema (a JSON Schema or a $ref) and its examples by name. */
export const json = (schema: object, examples?: Examples): ContentObject => ({
  'application/json': { schema: schema as never, ...(examples ? { examples } : {}) },
});
export const errorEnvelope = ref('ErrorEnvelope');
/** An error body (`{ detail, request_id }`) with its examples by name. */
export const errorContent = (examples: Examples): ContentObject => json(errorEnvelope, examples);

/** The documented success response of a route, with the headers every response carries (and examples by name). */
export function ApiResult(status: number, description: string, schema?: keyof typeof schemas, examples?: Examples) {
  if (schema && examples)
    return ApiResponse({
      status,
      description,
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: ref(schema), examples } },
    });
  return ApiResponse({ status, description, headers: RATE_LIMIT_HEADERS, ...(schema && { schema: ref(schema) }) });
}

/** The documented error responses of a route, all with the `{ detail, request_id }` envelope. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: ref('ErrorEnvelope'), examples: errorExamples(status) } },
        headers:
          status === 429
            ? { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } }
            : RATE_LIMIT_HEADERS,
      }),
    ),
  );
}

export function ApiJsonBody(schema: keyof typeof schemas) {
  return ApiBody({ schema: ref(schema) });
}
