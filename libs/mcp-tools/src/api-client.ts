// The REST API as the tools see it: every call carries the caller's own `Authorization` header, exactly as it reached
// the MCP endpoint. There is no other credential anywhere in this library (SPEC.md Authentication 7).
import { Agent, fetch } from 'undici';

/**
 * Idle sockets are dropped after 2 s, well inside the gateway's 5 s keep-alive timeout: a pooled socket the gateway
 * is closing at the same moment fails the request ("other side closed").
 */
const dispatcher = new Agent({ keepAliveTimeout: 2_000, keepAliveMaxTimeout: 2_000 });

export interface ApiResponse {
  readonly status: number;
  readonly contentType: string;
  /** The JSON body (an object), or undefined for a non-JSON answer. */
  readonly json: Record<string, unknown> | undefined;
  /** The raw bytes, for the PDF. */
  readonly bytes: Buffer;
  /** Retry-After (seconds) of a 429 or 503, when the API gave one. */
  readonly retryAfter?: string;
}

export interface ApiRequest {
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string | undefined>;
}

export class GatewayClient {
  /**
   * `authorization`: the header value, or a function answering the current request's (a server reused across
   * requests reads it from the request's async context; it throws rather than answer another caller's).
   */
  constructor(
    private readonly baseUrl: string,
    private readonly authorization: string | (() => string),
  ) {}

  async request(method: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const authorization = typeof this.authorization === 'function' ? this.authorization() : this.authorization;
    const headers: Record<string, string> = { authorization, accept: 'application/json, application/pdf' };
    for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = value;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      dispatcher,
      method,
      headers,
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type') ?? '';
    let json: Record<string, unknown> | undefined;
    if (contentType.includes('json') && bytes.length > 0) {
      const parsed: unknown = JSON.parse(bytes.toString('utf8'));
      json =
        parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
    }
    const retryAfter = response.headers.get('retry-after') ?? undefined;
    return { status: response.status, contentType, json, bytes, ...(retryAfter !== undefined && { retryAfter }) };
  }
}

/**
 * A path segment from an argument, so an access key or id cannot walk to another route: "/" and "?" are encoded, and
 * "." and ".." (which URL resolution would remove or climb, encoded or not) are refused before any call.
 */
export function segment(value: string): string {
  if (value === '.' || value === '..') throw new RangeError(`"${value}" is not an access key or invoice_id`);
  return encodeURIComponent(value);
}
