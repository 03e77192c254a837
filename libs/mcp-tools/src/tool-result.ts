// How an API answer becomes a tool result: a success is structured content (the API's JSON) plus one short sentence an
// agent can relay; an error status is a tool error carrying the API's own `detail` (the authorizer's message on 502,
// the field errors on 422), never an exception, so the agent reads why.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiResponse } from './api-client.js';

export function detailText(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  return JSON.stringify(detail);
}

/** The tool error for an answer ≥ 400 (or undefined when the answer is a success). */
export function apiError(response: ApiResponse): CallToolResult | undefined {
  if (response.status < 400) return undefined;
  const body = response.json ?? {};
  const detail = body['detail'] ?? (response.bytes.toString('utf8').slice(0, 500) || `HTTP ${response.status}`);
  const errors = Array.isArray(body['errors']) ? `\nAll errors: ${JSON.stringify(body['errors'])}` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `The API answered ${response.status}: ${detailText(detail)}${errors}` }],
    structuredContent: { http_status: response.status, ...body },
  };
}

/** The API's JSON answer as the tool's result, or its error. `summary` reads the body for the one-line text. */
export function apiResult(response: ApiResponse, summary: (body: Record<string, unknown>) => string): CallToolResult {
  const error = apiError(response);
  if (error) return error;
  const body = response.json ?? {};
  return {
    content: [{ type: 'text', text: `${summary(body)} (HTTP ${response.status})` }],
    structuredContent: { http_status: response.status, ...body },
  };
}
