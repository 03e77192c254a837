import type { GatewayRequest, GatewayResponse } from './gateway-request.js';
import { requestIdOf } from './gateway-request.js';

/** Every error the gateway answers: `detail` for the caller, `request_id` to find the log lines. */
export interface ErrorEnvelope {
  readonly detail: string | object;
  readonly request_id: string;
}

export const WWW_AUTHENTICATE = 'Bearer realm="talao"';

/** Writes the envelope directly (used by middlewares that answer before Nest's routing, and by the filter). */
export function sendError(req: GatewayRequest, res: GatewayResponse, status: number, detail: string | object, extra: Record<string, unknown> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = { detail, ...extra, request_id: requestIdOf(req) };
  if (status === 401) res.setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
