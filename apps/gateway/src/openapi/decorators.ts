import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import { ref, type schemas } from './schemas.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'Missing, malformed, unknown or revoked credential (`WWW-Authenticate: Bearer`)',
  404: 'Not found (or not the caller’s)',
  409: 'Conflict with the current state',
  413: 'Request body over the limit (1 MiB by default)',
  415: 'Content-Type is not application/json',
  422: 'Invalid request: malformed JSON or failed validation (`detail` names the fields)',
  429: 'Rate limit exceeded; see `Retry-After`',
  503: 'A dependency is unavailable',
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this operation and key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets (epoch seconds)', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'The request id (yours when sane, else generated)', schema: { type: 'string' } },
};

/** The documented success response of a route, with the headers every response carries. */
export function ApiResult(status: number, description: string, schema?: keyof typeof schemas) {
  return ApiResponse({ status, description, headers: RATE_LIMIT_HEADERS, ...(schema && { schema: ref(schema) }) });
}

/** The documented error responses of a route, all with the `{ detail, request_id }` envelope. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        schema: ref('ErrorEnvelope'),
        headers: status === 429 ? { ...RATE_LIMIT_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } : RATE_LIMIT_HEADERS,
      }),
    ),
  );
}

export function ApiJsonBody(schema: keyof typeof schemas) {
  return ApiBody({ schema: ref(schema) });
}
