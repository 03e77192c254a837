// The HTTP entry: /healthz and /readyz, /metrics (Prometheus), and /mcp (streamable HTTP, stateless: one server and transport per request).
// Every /mcp request must carry `Authorization: Bearer …`; it goes to the REST API as is, which decides (401/403).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '@talao/mcp-tools';
import { type Logger, METRICS_CONTENT_TYPE, observeResponse, renderMetrics } from '@talao/observability';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('Request body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
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

async function handleMcp(req: IncomingMessage, res: ServerResponse, gatewayUrl: string, logger: Logger): Promise<void> {
  const authorization = bearerOf(req);
  if (!authorization) {
    json(
      res,
      401,
      { detail: 'Missing credential: send a company API key as Authorization: Bearer <key>' },
      { 'www-authenticate': 'Bearer' },
    );
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const server = createMcpServer({ gatewayUrl, authorization });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (error) {
    logger.error({ err: error }, 'mcp request failed');
    if (!res.headersSent) json(res, 500, { detail: 'Internal error' });
  }
}

/** The paths /metrics counts requests under (anything else: `unmatched`, so the label set stays bounded). */
const KNOWN_PATHS = new Set(['/mcp', '/healthz', '/readyz', '/metrics']);

export function createMcpHttpServer(options: { gatewayUrl: string; logger: Logger }): Server {
  return createServer((req, res) => {
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
    if (path !== '/mcp') return json(res, 404, { detail: 'Not found' });
    handleMcp(req, res, options.gatewayUrl, options.logger).catch((error: Error & { status?: number }) => {
      if (!res.headersSent) json(res, error.status ?? 500, { detail: error.status ? error.message : 'Internal error' });
    });
  });
}
