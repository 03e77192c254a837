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

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  api = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.writeHead(req.headers.authorization === 'Bearer good-key' ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.headers.authorization === 'Bearer good-key' ? { total: 0, data: [] } : { detail: 'Invalid API key' }));
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

it('an API 401 is a tool error with the API detail', async () => {
  const result = await listInvoicesWith('bad-key');
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
