// The HTTP entry in process, in front of a stand-in REST API that records what reaches it: the caller's
// Authorization header arrives exactly as sent, a request without one never gets past the entry, and an API error
// becomes a tool error carrying the API's detail.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '@talao/observability';
import { createMcpHttpServer } from './mcp-http.js';

let api: Server;
let mcp: Server;
let mcpUrl: string;
const seen: Array<{ method?: string; url?: string; authorization?: string }> = [];
/** The keys the MCP entry asked the API about (GET /api/v1/me). */
const checks: string[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // Keys it accepts: good-key and the numbers; revoked-key passes the MCP entry's check (GET /api/v1/me, remembered)
  // and is refused by the call the tool makes, as a key revoked in between would be.
  api = createServer((req: IncomingMessage, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const known = key === 'good-key' || /^\d+$/.test(key) || (key === 'revoked-key' && req.url === '/api/v1/me');
    if (req.url === '/api/v1/me') checks.push(key);
    else seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.writeHead(known ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(known ? { total: 0, data: [] } : { detail: 'Invalid API key' }));
  });
  const apiPort = await listen(api);
  mcp = createMcpHttpServer({ gatewayUrl: `http://127.0.0.1:${apiPort}`, logger: createLogger({ name: 'mcp-test', level: 'silent' }) });
  mcpUrl = `http://127.0.0.1:${await listen(mcp)}/mcp`;
});

afterAll(async () => {
  mcp.closeAllConnections();
  api.closeAllConnections();
  await new Promise((resolve) => mcp.close(resolve));
  await new Promise((resolve) => api.close(resolve));
});

async function listInvoicesWith(key: string): Promise<CallToolResult> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  try {
    return (await client.callTool({ name: 'list_invoices', arguments: { status: 'issued' } })) as CallToolResult;
  } finally {
    await client.close();
  }
}

it('passes the Authorization header to the REST API as is, with the tool arguments as the query', async () => {
  seen.length = 0;
  const result = await listInvoicesWith('good-key');
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual({ http_status: 200, total: 0, data: [] });
  expect(seen).toEqual([{ method: 'GET', url: '/api/v1/invoices?status=issued', authorization: 'Bearer good-key' }]);
});

it('an API 401 on a tool call (a key revoked since the entry checked it) is a tool error with the API detail', async () => {
  const result = await listInvoicesWith('revoked-key');
  expect(result.isError).toBe(true);
  expect(result.content[0]).toEqual({ type: 'text', text: 'The API answered 401: Invalid API key' });
});

it.each([undefined, 'Basic dXNlcjpwYXNz', 'Bearer '])('Authorization %p → 401 JSON; nothing reaches the API', async (authorization) => {
  seen.length = 0;
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization !== undefined && { authorization }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_invoices', arguments: {} } }),
  });
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(
    `Bearer resource_metadata="${new URL(mcpUrl).origin}/.well-known/oauth-protected-resource/mcp"`,
  );
  expect(await response.json()).toEqual({ detail: expect.stringContaining('API key') });
  expect(seen).toEqual([]);
});

it('a bearer the API does not accept → 401 at the entry: no tools listed, no tool run, not even the local one', async () => {
  seen.length = 0;
  checks.length = 0;
  for (const body of [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'validate_invoice_payload', arguments: { document_type: 'nfse', items: [] } },
    },
  ]) {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer made-up' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await response.json()).toEqual({ detail: 'Invalid API key' });
  }
  expect(checks).toEqual(['made-up', 'made-up']);
  expect(seen).toEqual([]);
});

it('an accepted key is checked once, then remembered', async () => {
  checks.length = 0;
  await listInvoicesWith('77');
  await listInvoicesWith('77');
  expect(checks).toEqual(['77']);
});

it('answers /healthz and /readyz, and 404 elsewhere', async () => {
  const base = mcpUrl.replace(/\/mcp$/, '');
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  expect((await fetch(`${base}/other`)).status).toBe(404);
});

it('servers are reused across requests, yet concurrent callers each reach the API with their own credential', async () => {
  seen.length = 0;
  const keys = Array.from({ length: 24 }, (_, i) => String(i + 1));
  const answers = await Promise.all(
    [...keys, ...keys].map((key) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_invoices', arguments: { page_size: Number(key) } },
        }),
      }).then((response) => response.json()),
    ),
  );
  expect(answers).toHaveLength(48);
  // The stand-in API saw each key exactly twice, each time with the arguments of that key's own call.
  for (const key of keys) {
    expect(seen.filter((request) => request.authorization === `Bearer ${key}`).map((request) => request.url)).toEqual([
      `/api/v1/invoices?page_size=${key}`,
      `/api/v1/invoices?page_size=${key}`,
    ]);
  }
});
