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
  // A 429 (rate limit) or 503 (a PDF still rendering, the service busy) says when to ask again in a header.
  const retry = response.retryAfter === undefined ? '' : ` Ask again in ${response.retryAfter} s (Retry-After).`;
  return {
    isError: true,
    content: [{ type: 'text', text: `The API answered ${response.status}: ${detailText(detail)}${errors}${retry}` }],
    structuredContent: {
      http_status: response.status,
      ...body,
      ...(response.retryAfter !== undefined && { retry_after_seconds: Number(response.retryAfter) }),
    },
  };
}

/** How much of the answer's JSON the text block carries: a submission history with its XML can run to megabytes. */
const MAX_JSON_TEXT = 100_000;

/**
 * The API's JSON answer as the tool's result, or its error. `summary` reads the body for the one-line text. The JSON
 * is also given as text (MCP, "Structured Content": a tool returning structured content SHOULD also return it
 * serialized in a TextContent block), for hosts that hand the model `content` only.
 */
export function apiResult(response: ApiResponse, summary: (body: Record<string, unknown>) => string): CallToolResult {
  const error = apiError(response);
  if (error) return error;
  const structured = { http_status: response.status, ...(response.json ?? {}) };
  const json = JSON.stringify(structured);
  return {
    content: [
      { type: 'text', text: `${summary(structured)} (HTTP ${response.status})` },
      {
        type: 'text',
        text:
          json.length <= MAX_JSON_TEXT
            ? json
            : `${json.slice(0, MAX_JSON_TEXT)}… (cut at ${MAX_JSON_TEXT} characters; the whole answer is the structured content)`,
      },
    ],
    structuredContent: structured,
  };
}
