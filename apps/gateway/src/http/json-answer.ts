import type { GatewayResponse } from './gateway-request.js';

/** Writes a JSON answer; `write` makes the body's text (routes with decimal amounts pass theirs, see ../invoices/invoice-json.ts). */
export function sendJson(res: GatewayResponse, status: number, body: unknown, write: (body: unknown) => string = JSON.stringify): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(write(body));
}
