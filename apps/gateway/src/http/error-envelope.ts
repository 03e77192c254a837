import type { GatewayRequest, GatewayResponse } from './gateway-request.js';
import { requestIdOf } from './gateway-request.js';

/** Every error the gateway answers: `detail` for the caller, `request_id` to find the log lines. */
export interface ErrorEnvelope {
  readonly detail: string | object;
  readonly request_id: string;
}

export const WWW_AUTHENTICATE = 'Bearer realm="talao"';

/**
 * How many entries an error list may carry. A body with 50,000 unknown fields once produced a 5.9 MB answer, stored
 * for 24 h with its Idempotency-Key; the first entries are what a client fixes first anyway.
 */
export const MAX_LISTED_ERRORS = 20;
/** Longest text kept in a listed error (a field name or a message quoting the input). */
const MAX_ERROR_TEXT = 200;

function shortened(entry: unknown): unknown {
  if (typeof entry === 'string') return entry.length > MAX_ERROR_TEXT ? `${entry.slice(0, MAX_ERROR_TEXT)}…` : entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  return Object.fromEntries(Object.entries(entry).map(([name, value]) => [name, typeof value === 'string' ? shortened(value) : value]));
}

/**
 * A validation answer's `errors` (at the top, beside `detail`, or inside `detail`) cut to MAX_LISTED_ERRORS entries
 * with `errors_total` and `errors_omitted` saying that more were found; the listed texts (field names, messages that
 * quote the input) cut to 200 characters. Any other body is returned as it is.
 */
export function withBoundedErrors<T extends Record<string, unknown>>(body: T): T {
  const bound = (holder: Record<string, unknown>): Record<string, unknown> => {
    const errors = holder.errors as unknown[];
    const listed = errors.slice(0, MAX_LISTED_ERRORS).map(shortened);
    if (errors.length <= MAX_LISTED_ERRORS) return { ...holder, errors: listed };
    return { ...holder, errors: listed, errors_total: errors.length, errors_omitted: errors.length - MAX_LISTED_ERRORS };
  };
  if (Array.isArray(body.errors)) return { ...bound(body), detail: shortened(body.detail) } as unknown as T;
  const detail = body.detail as Record<string, unknown> | null | undefined;
  if (detail !== null && typeof detail === 'object' && Array.isArray(detail.errors)) {
    return { ...body, detail: shortened(bound(detail)) } as unknown as T;
  }
  return body;
}

/** Writes the envelope directly (used by middlewares that answer before Nest's routing, and by the filter). */
export function sendError(
  req: GatewayRequest,
  res: GatewayResponse,
  status: number,
  detail: string | object,
  extra: Record<string, unknown> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = withBoundedErrors({ detail, ...extra, request_id: requestIdOf(req) });
  if (status === 401) res.setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
