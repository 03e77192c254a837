// OAuth 2.1 end to end, every piece a real process (authorizer simulator, issuer, gateway with its authorization
// server, two MCP apps): discovery from the MCP app's 401 and its RFC 9728 document, dynamic registration, the
// authorization with PKCE through the consent page in headless Chromium (API key typed, scopes unticked), the code
// exchange, tool calls through the SDK's client with the access token, refresh-token rotation, a tool outside the
// granted scopes refused by the MCP app (403 insufficient_scope) and the same token refused by the REST API, and a
// genuine token presented to an MCP server of another URL (wrong audience) refused.
import { jest } from '@jest/globals';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodeJwt } from 'jose';
import { discover, exchangeCode, pkcePair, refresh, registerClient } from '@talao/authorization-server/testing';
import { freePort } from '../issuance/support/app-processes.js';
import { type Platform, startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { chromiumPresent, consentInChromium } from './consent-in-chromium.js';
import { connectClient, listToolsWithoutCredentials, type RunningMcp, startMcp } from './support.js';

jest.setTimeout(180_000);

const REDIRECT = 'http://127.0.0.1:9/callback';
let p: Platform;
let company: TestCompany;
let mcp: RunningMcp;
let otherMcp: RunningMcp;
let mcpPublicUrl: string;

beforeAll(async () => {
  const port = await freePort();
  mcpPublicUrl = `http://localhost:${port}/mcp`;
  p = await startPlatform('mcp-oauth', { gatewayEnv: { MCP_PUBLIC_URL: mcpPublicUrl, RATE_LIMIT_UNAUTHENTICATED: '10000' } });
  company = await p.createCompany();
  mcp = await startMcp(p, { port });
  // Another MCP server of the same platform at another URL: tokens for the first are not for it.
  otherMcp = await startMcp(p);
}, 420_000); // builds the apps first when they are stale

afterAll(async () => {
  await mcp?.process.kill('SIGTERM');
  await otherMcp?.process.kill('SIGTERM');
  await p?.stop();
});

it('discovery → registration → consent in Chromium → token → tools/call → refresh rotation → scope and audience refusals', async () => {
  // 1. The MCP app's 401 points at its resource metadata, which names the authorization server.
  const unauthenticated = await listToolsWithoutCredentials(mcp.url);
  expect(unauthenticated.status).toBe(401);
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(unauthenticated.headers.get('www-authenticate') ?? '')?.[1];
  expect(resourceMetadataUrl).toBeDefined();
  const resourceMetadata = (await (await fetch(resourceMetadataUrl!)).json()) as {
    resource: string;
    authorization_servers: string[];
    scopes_supported: string[];
  };
  expect(resourceMetadata.resource).toBe(mcpPublicUrl);
  expect(resourceMetadata.scopes_supported).toEqual(['invoice:read', 'invoice:issue', 'invoice:cancel', 'invoice:write']);
  const issuer = resourceMetadata.authorization_servers[0]!;
  const metadata = await discover(issuer);

  // 2. Dynamic registration, then the authorization with PKCE S256; the person grants invoice:read only.
  const { client_id: clientId } = await registerClient(metadata, { client_name: 'E2E agent', redirect_uris: [REDIRECT] });
  expect(clientId).toBeDefined();
  const pkce = pkcePair();
  const authorizationUrl = new URL(metadata.authorization_endpoint);
  authorizationUrl.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId!,
    redirect_uri: REDIRECT,
    scope: 'invoice:read invoice:cancel',
    state: 'xyz',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    resource: mcpPublicUrl,
  }).toString();
  if (!chromiumPresent()) throw new Error('Chromium is required for the consent page test (CHROMIUM_PATH or Debian chromium)');
  const { callback, pageText } = await consentInChromium(authorizationUrl.toString(), {
    apiKey: company.homologationKey,
    untick: ['invoice:cancel'],
    redirectUri: REDIRECT,
  });
  expect(pageText).toContain('E2E agent');
  expect(pageText).toContain('Cancel issued invoices');
  expect(callback.searchParams.get('iss')).toBe(issuer);
  expect(callback.searchParams.get('state')).toBe('xyz');

  // 3. The token: a JWT for the MCP URL with the granted scope only.
  const token = await exchangeCode(metadata, { clientId: clientId!, code: callback.searchParams.get('code')!, verifier: pkce.verifier });
  expect(token.status).toBe(200);
  const accessToken = String(token.json['access_token']);
  expect(decodeJwt(accessToken)).toMatchObject({ aud: mcpPublicUrl, iss: issuer, scope: 'invoice:read' });

  // 4. Tool calls through the SDK's client with the access token; the REST API answers as for the key.
  const agent = await connectClient(mcp.url, accessToken);
  try {
    const listed = (await agent.callTool({ name: 'list_invoices', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toMatchObject({ http_status: 200 });
    // 5. A tool outside the grant: the MCP app refuses before calling the API, naming the scope.
    await expect(
      agent.callTool({
        name: 'cancel_invoice',
        arguments: { access_key: '3'.repeat(44), document_type: 'nfe', reason: 'Cancelamento de teste e2e' },
      }),
    ).rejects.toThrow(/403|insufficient_scope|invoice:cancel/);
  } finally {
    await agent.close();
  }
  // ... and the REST API refuses the same token on its own cancel endpoint.
  const rest = await fetch(`${p.gatewayUrl}/api/v1/invoices/${'3'.repeat(44)}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'Cancelamento de teste e2e', document_type: 'nfe' }),
  });
  expect(rest.status).toBe(403);
  expect(rest.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="invoice:cancel"');

  // 6. Refresh rotation: a new pair that works; the old refresh token is refused.
  const refreshed = await refresh(metadata, { clientId: clientId!, refreshToken: String(token.json['refresh_token']) });
  expect(refreshed.status).toBe(200);
  expect(refreshed.json['refresh_token']).not.toBe(token.json['refresh_token']);
  const renewed = await connectClient(mcp.url, String(refreshed.json['access_token']));
  try {
    expect(((await renewed.callTool({ name: 'list_invoices', arguments: {} })) as CallToolResult).isError).toBeFalsy();
  } finally {
    await renewed.close();
  }
  expect((await refresh(metadata, { clientId: clientId!, refreshToken: String(token.json['refresh_token']) })).status).toBe(400);

  // 7. Wrong audience: the genuine token at an MCP server of another URL → 401 invalid_token.
  const elsewhere = await fetch(otherMcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_invoices', arguments: {} } }),
  });
  expect(elsewhere.status).toBe(401);
  expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"');
  expect(((await elsewhere.json()) as { detail: string }).detail).toContain('another resource');
});

it('the MCP SDK’s own OAuth client discovers, registers (asking the resource’s scopes) and starts the authorization', async () => {
  // What a standard MCP client does on the 401: the SDK's auth(), with an in-memory client provider. It registers with
  // the protected resource's scopes_supported in its metadata, which the authorization server used to refuse.
  let registered: { client_id: string; scope?: string } | undefined;
  let verifier = '';
  let authorizationUrl: URL | undefined;
  const provider = {
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: 'SDK agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
    clientInformation: () => registered,
    saveClientInformation: (information: { client_id: string; scope?: string }) => {
      registered = information;
    },
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: (url: URL) => {
      authorizationUrl = url;
    },
    saveCodeVerifier: (value: string) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
  };
  expect(await auth(provider, { serverUrl: mcpPublicUrl })).toBe('REDIRECT');
  expect(registered?.client_id).toEqual(expect.any(String));
  expect(registered?.scope?.split(' ')).toEqual(
    expect.arrayContaining(['invoice:read', 'invoice:issue', 'invoice:cancel', 'invoice:write']),
  );
  expect(authorizationUrl?.searchParams.get('resource')).toBe(mcpPublicUrl);
  expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
});
