// The MCP app's OAuth side in process, with a stand-in authorization server (its JWKS on a local port, tokens signed
// here with jose) and a stand-in REST API: RFC 9728 metadata at its three addresses, a valid token passed to the API as
// is, refusals before anything reaches the API (wrong audience, expired, another issuer → 401 invalid_token with
// resource_metadata; a tool outside the token's scopes → 403 insufficient_scope naming the scope), and the scope
// table covering exactly the tools the server registers.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SCOPES, TOOL_SCOPES } from '@talao/access-tokens';
import { createLogger } from '@talao/observability';
import { createMcpHttpServer } from './mcp-http.js';

let api: Server;
let issuerServer: Server;
let mcp: Server;
let mcpUrl: string;
let issuer: string;
let sign: (claims?: Record<string, unknown>) => Promise<string>;
const seen: Array<{ url?: string; authorization?: string }> = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  issuerServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jwks));
  });
  issuer = `http://127.0.0.1:${await listen(issuerServer)}/oauth`;
  api = createServer((req: IncomingMessage, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ total: 0, data: [] }));
  });
  const apiPort = await listen(api);
  mcp = createServer();
  const port = await listen(mcp);
  mcp.close();
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  mcp = createMcpHttpServer({
    gatewayUrl: `http://127.0.0.1:${apiPort}`,
    logger: createLogger({ name: 'mcp-test', level: 'silent' }),
    auth: { publicUrl: mcpUrl, oauthIssuer: issuer },
  });
  await new Promise<void>((resolve) => mcp.listen(port, '127.0.0.1', resolve));
  sign = (claims = {}) =>
    new SignJWT({ client_id: 'agent', scope: 'invoice:read', environment: 'homologation', ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
      .setIssuer(String(claims['iss'] ?? issuer))
      .setAudience(String(claims['aud'] ?? mcpUrl))
      .setSubject('11111111-1111-4111-8111-111111111111:22222222-2222-4222-8222-222222222222')
      .setIssuedAt()
      .setExpirationTime(Number(claims['exp'] ?? Math.floor(Date.now() / 1000) + 300))
      .sign(privateKey);
});

afterAll(async () => {
  for (const server of [mcp, api, issuerServer]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const metadataUrl = () => `${new URL(mcpUrl).origin}/.well-known/oauth-protected-resource/mcp`;

function callTool(token: string, name: string, args: Record<string, unknown> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
}

it.each([
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource',
  '/mcp/.well-known/oauth-protected-resource',
])('GET %s is the RFC 9728 document', async (path) => {
  const response = await fetch(`${new URL(mcpUrl).origin}${path}`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    resource: mcpUrl,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: expect.any(String),
  });
});

it('a valid access token reaches the API as is, through a real MCP client', async () => {
  seen.length = 0;
  const token = await sign();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  try {
    const result = await client.callTool({ name: 'list_invoices', arguments: {} });
    expect(result.isError).toBeFalsy();
  } finally {
    await client.close();
  }
  expect(seen).toEqual([{ url: '/api/v1/invoices', authorization: `Bearer ${token}` }]);
});

it.each([
  ['another audience', { aud: 'http://127.0.0.1:1/mcp' }, 'another resource'],
  ['expired', { exp: Math.floor(Date.now() / 1000) - 120 }, 'expired'],
  ['another issuer', { iss: 'https://evil.example/oauth' }, 'another authorization server'],
])('%s → 401 invalid_token with resource_metadata; nothing reaches the API', async (_name, claims, reason) => {
  seen.length = 0;
  const response = await callTool(await sign(claims), 'list_invoices');
  expect(response.status).toBe(401);
  const challenge = response.headers.get('www-authenticate')!;
  expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
  expect(challenge).toContain('error="invalid_token"');
  expect(((await response.json()) as { detail: string }).detail).toContain(reason);
  expect(seen).toEqual([]);
});

it('a tool outside the token scopes → 403 insufficient_scope naming the scope; a covered or scope-less tool runs', async () => {
  seen.length = 0;
  const token = await sign({ scope: 'invoice:read' });
  const refused = await callTool(token, 'cancel_invoice', { access_key: 'k', document_type: 'nfe', reason: 'x'.repeat(20) });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('www-authenticate')).toBe(
    `Bearer resource_metadata="${metadataUrl()}", error="insufficient_scope", scope="invoice:cancel"`,
  );
  expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { message: expect.stringContaining('invoice:cancel') } });
  expect(seen).toEqual([]);
  expect((await callTool(token, 'validate_invoice_payload', { document_type: 'nfse', items: [] })).status).toBe(200);
  expect((await callTool(token, 'consult_invoice', { access_key: 'k', document_type: 'nfe' })).status).toBe(200);
});

it('the scope table names exactly the tools the server lists', async () => {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: 'Bearer talao_hml_x' } } }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOL_SCOPES).sort());
  } finally {
    await client.close();
  }
});
