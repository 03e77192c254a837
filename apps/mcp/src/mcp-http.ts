// The HTTP entry: /healthz and /readyz, /metrics (Prometheus), the protected resource metadata (RFC 9728), and /mcp (streamable HTTP,
// stateless: a transport per request, servers reused through mcp-server-pool.ts). Every /mcp request must carry `Authorization: Bearer …` (an API
// key the REST API accepts, or an OAuth access token, mcp-auth.ts); it goes to the REST API as is, which decides each call (401/403).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import getRawBody from 'raw-body';
import { type Logger, METRICS_CONTENT_TYPE, observeResponse, renderMetrics } from '@talao/observability';
import { gatewayApiKeyCheck, McpAuth, type McpAuthOptions } from './mcp-auth.js';
import { McpServerPool } from './mcp-server-pool.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = await getRawBody(req, { limit: MAX_BODY_BYTES }).catch((error: { status?: number }) => {
    throw Object.assign(new Error(error.status === 413 ? 'Request body too large' : 'The body could not be read'), {
      status: error.status === 413 ? 413 : 400,
    });
  });
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw Object.assign(new Error('The body is not valid JSON'), { status: 400 });
  }
}

/** The bearer credential of the request, or undefined (no header, another scheme, an empty token). */
export function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match ? `Bearer ${match[1]}` : undefined;
}

async function handleMcp(req: IncomingMessage, res: ServerResponse, pool: McpServerPool, auth: McpAuth, logger: Logger): Promise<void> {
  const caller = await auth.authenticate(req);
  if ('status' in caller) {
    json(res, caller.status, { detail: caller.detail }, caller.challenge ? { 'www-authenticate': caller.challenge } : {});
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const refusal = auth.checkToolScopes(caller, body);
  if (refusal) {
    const id = (body as { id?: unknown } | null)?.id ?? null;
    json(
      res,
      refusal.status,
      { jsonrpc: '2.0', id, error: { code: -32001, message: refusal.detail, data: { required_scope: refusal.scope } } },
      refusal.challenge ? { 'www-authenticate': refusal.challenge } : {},
    );
    return;
  }
  await pool.serve(caller.authorization, async (server, release) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().finally(release));
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      logger.error({ err: error }, 'mcp request failed');
      if (!res.headersSent) json(res, 500, { detail: 'Internal error' });
    }
  });
}

/**
 * DNS rebinding protection (MCP transport security: servers MUST validate Origin): a page on another site that
 * resolves its own name to this server's address sends its own Host and Origin; only this server's names pass.
 */
function hostAllowed(req: IncomingMessage, allowedHosts: ReadonlySet<string>): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowedHosts.has(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return allowedHosts.has(new URL(origin).host.toLowerCase());
  } catch {
    return false;
  }
}

export interface McpHttpOptions {
  readonly gatewayUrl: string;
  readonly logger: Logger;
  /** Host header values (host:port) accepted on /mcp; absent: any (tests on ephemeral ports without a public URL). */
  readonly allowedHosts?: readonly string[];
  /** OAuth: this server's public URL and the authorization server (default: API keys only, URL from the socket). */
  readonly auth?: McpAuthOptions;
}

/** The paths /metrics counts requests under (anything else: `unmatched`, so the label set stays bounded). */
const KNOWN_PATHS = new Set(['/mcp', '/healthz', '/readyz', '/metrics']);

export function createMcpHttpServer(options: McpHttpOptions): Server {
  const checkApiKey = gatewayApiKeyCheck(options.gatewayUrl);
  let auth: McpAuth | undefined = options.auth ? new McpAuth(options.auth, checkApiKey) : undefined;
  const pool = new McpServerPool(options.gatewayUrl);
  const allowedHosts = options.allowedHosts && new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const server = createServer((req, res) => {
    // Without a configured public URL (tests on an ephemeral port), this server's own address names the resource.
    auth ??= new McpAuth({ publicUrl: `http://${req.headers.host ?? '127.0.0.1'}/mcp` }, checkApiKey);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    observeResponse(req.method, res, KNOWN_PATHS.has(path) ? path : 'unmatched');
    if (path === '/healthz' || path === '/readyz') return json(res, 200, { status: 'ok' });
    if (path === '/metrics') {
      renderMetrics().then(
        (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
        () => json(res, 503, { detail: 'Metrics are unavailable right now' }),
      );
      return;
    }
    // RFC 9728's path-inserted address, the root one, and SPEC.md's {mcp_url}/.well-known/oauth-protected-resource.
    if (
      path === '/.well-known/oauth-protected-resource/mcp' ||
      path === '/.well-known/oauth-protected-resource' ||
      path === '/mcp/.well-known/oauth-protected-resource'
    ) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { detail: 'Use GET' }, { allow: 'GET, HEAD' });
      return json(res, 200, auth.protectedResourceMetadata(), { 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' });
    }
    if (path !== '/mcp') return json(res, 404, { detail: 'Not found' });
    if (allowedHosts && !hostAllowed(req, allowedHosts)) {
      return json(res, 403, { detail: 'Host or Origin not allowed for this server (DNS rebinding protection)' });
    }
    handleMcp(req, res, pool, auth, options.logger).catch((error: Error & { status?: number }) => {
      if (!error.status) options.logger.error({ err: error }, 'mcp request failed');
      if (!res.headersSent) json(res, error.status ?? 500, { detail: error.status ? error.message : 'Internal error' });
    });
  });
  return server;
}
