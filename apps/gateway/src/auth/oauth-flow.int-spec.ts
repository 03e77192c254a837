// The authorization server in the gateway, end to end over HTTP with real PostgreSQL and Redis: discovery, dynamic
// registration, authorization with PKCE through the consent page (API key proved, fewer scopes granted), the token
// (at+jwt, aud = MCP URL, RFC 9207 iss), the REST API accepting it within its scopes (403 insufficient_scope
// otherwise), refresh rotation, and the refusals: wrong verifier, plain PKCE, reused code, redirect mismatch, wrong
// claims altered, revoked (refresh token, API key), wrong key on the consent page, denial. A genuine token for
// another audience and an expired one: libs/access-tokens (verifier) and e2e/mcp (the MCP app).
import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { deleteExpiredOAuthRecords } from '@talao/authorization-server';
import {
  authorize,
  discover,
  exchangeCode,
  obtainTokens,
  refresh,
  registerClient,
  revoke,
  type ServerMetadata,
} from '@talao/authorization-server/testing';
import { createCompanyWithKey, freeLocalPort, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

const MCP_URL = 'http://127.0.0.1:4299/mcp';
let gateway: TestGateway;
let issuer: string;
let metadata: ServerMetadata;
let company: Awaited<ReturnType<typeof createCompanyWithKey>>;

beforeAll(async () => {
  const port = await freeLocalPort();
  issuer = `http://127.0.0.1:${port}/oauth`;
  gateway = await startTestGateway({ MCP_PUBLIC_URL: MCP_URL, OAUTH_ISSUER: issuer, RATE_LIMIT_UNAUTHENTICATED: '100000' }, { port });
  company = await createCompanyWithKey(gateway);
  metadata = await discover(issuer);
}, 60_000);

afterAll(async () => {
  await gateway.close();
});

async function codeFor(clientId: string, options: Partial<Parameters<typeof authorize>[1]> = {}) {
  const outcome = await authorize(metadata, { clientId, apiKey: company.key, ...options });
  return { outcome, code: outcome.callback?.searchParams.get('code') ?? undefined };
}

it('publishes RFC 8414 metadata: S256 only, registration, revocation, iss in responses', () => {
  expect(metadata.issuer).toBe(issuer);
  expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  expect(metadata.registration_endpoint).toBe(`${issuer}/reg`);
  expect(metadata.revocation_endpoint).toBeDefined();
  expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  expect((metadata as unknown as Record<string, unknown>)['client_id_metadata_document_supported']).toBe(true);
});

it('registration takes the resource scopes in `scope`, as an MCP client sends them, and the flow grants them', async () => {
  expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['invoice:read', 'invoice:issue', 'invoice:cancel', 'invoice:write']));
  const all = 'invoice:read invoice:issue invoice:cancel invoice:write';
  const registered = await registerClient(metadata, { scope: all });
  expect(registered.status).toBe(201);
  const { outcome, code } = await codeFor(registered.client_id!, { scope: all, grant: ['invoice:read', 'invoice:cancel'] });
  const token = await exchangeCode(metadata, { clientId: registered.client_id!, code: code!, verifier: outcome.verifier });
  expect(token.status).toBe(200);
  expect(decodeJwt(String(token.json['access_token']))).toMatchObject({ aud: MCP_URL, scope: 'invoice:read invoice:cancel' });
});

it('registration metadata PostgreSQL cannot store (NUL, a lone surrogate) is invalid_client_metadata, not a 500', async () => {
  for (const body of [
    { client_name: 'a\u0000b' },
    { client_uri: 'https://x.example/\ud800' },
    { redirect_uris: ['http://127.0.0.1:9/cb\u0000'] },
  ]) {
    const answer = await registerClient(metadata, body);
    expect({ body, status: answer.status }).toEqual({ body, status: 400 });
    expect(answer.json['error']).toBe('invalid_client_metadata');
  }
});

it('expired rows are deleted by the cleanup', async () => {
  await gateway.resources.prisma.oAuthRecord.create({
    data: { model: 'AuthorizationCode', id: 'expired-row', payload: {}, expiresAt: new Date(Date.now() - 1000) },
  });
  expect(await deleteExpiredOAuthRecords(gateway.resources.prisma)).toBeGreaterThanOrEqual(1);
  expect(
    await gateway.resources.prisma.oAuthRecord.findUnique({ where: { model_id: { model: 'AuthorizationCode', id: 'expired-row' } } }),
  ).toBeNull();
});

it('full flow: a token for the MCP URL with the scopes the person ticked, honoured and bounded by the REST API', async () => {
  const { client_id: clientId } = await registerClient(metadata);
  const { outcome, code } = await codeFor(clientId!, { grant: ['invoice:read'] });
  expect(outcome.callback!.searchParams.get('iss')).toBe(issuer);
  expect(outcome.callback!.searchParams.get('state')).toBe(outcome.state);
  const token = await exchangeCode(metadata, { clientId: clientId!, code: code!, verifier: outcome.verifier });
  expect(token.status).toBe(200);
  expect(token.json).toMatchObject({ token_type: 'Bearer', scope: 'invoice:read' });
  const accessToken = String(token.json['access_token']);
  expect(decodeProtectedHeader(accessToken)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
  expect(decodeJwt(accessToken)).toMatchObject({
    iss: issuer,
    aud: MCP_URL,
    scope: 'invoice:read',
    client_id: clientId,
    sub: `${company.companyId}:${company.apiKeyId}`,
    environment: 'homologation',
  });

  const me = await gateway.request('GET', '/api/v1/me', { token: accessToken });
  expect(me.status).toBe(200);
  expect(await gateway.request('GET', '/api/v1/invoices', { token: accessToken }).then((r) => r.status)).toBe(200);
  const cancel = await gateway.request('POST', '/api/v1/invoices/35260112345678000195550010000000011000000011/cancel', {
    token: accessToken,
    body: { reason: 'Cancelled for the test of scopes', document_type: 'nfe' },
  });
  expect(cancel.status).toBe(403);
  expect(cancel.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="invoice:cancel"');
  expect(await cancel.json()).toMatchObject({ detail: expect.stringContaining('invoice:cancel'), required_scope: 'invoice:cancel' });
  const webhooks = await gateway.request('GET', '/api/v1/webhooks', { token: accessToken });
  expect(webhooks.status).toBe(403);

  // Refresh rotates: a new pair; the old refresh token is then refused (and the grant revoked with it).
  const refreshed = await refresh(metadata, { clientId: clientId!, refreshToken: String(token.json['refresh_token']) });
  expect(refreshed.status).toBe(200);
  expect(refreshed.json['refresh_token']).not.toBe(token.json['refresh_token']);
  expect(decodeJwt(String(refreshed.json['access_token']))).toMatchObject({ aud: MCP_URL, scope: 'invoice:read' });
  const reused = await refresh(metadata, { clientId: clientId!, refreshToken: String(token.json['refresh_token']) });
  expect(reused.status).toBe(400);
  expect(reused.json['error']).toBe('invalid_grant');
});

it('the database holds no usable code or token: ids are hashed, payloads carry no jti', async () => {
  const { accessToken, refreshToken } = await obtainTokens(issuer, { apiKey: company.key });
  const rows = await gateway.resources.prisma.oAuthRecord.findMany({ where: { model: 'RefreshToken' } });
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.some((row) => row.id === refreshToken)).toBe(false);
  expect(rows.some((row) => row.id === createHash('sha256').update(refreshToken).digest('base64url'))).toBe(true);
  expect(JSON.stringify(rows)).not.toContain(refreshToken);
  // The key that signed the token (one per certificate encryption key: other platforms on this database have theirs).
  const { kid } = decodeProtectedHeader(accessToken);
  const key = await gateway.resources.prisma.oAuthSigningKey.findUnique({ where: { kid: String(kid) } });
  expect(key).not.toBeNull();
  expect(Buffer.from(key!.sealedJwk).toString('utf8')).not.toContain('"d"');
});

describe('refusals', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = (await registerClient(metadata)).client_id!;
  });

  it('wrong code verifier', async () => {
    const { code } = await codeFor(clientId);
    const token = await exchangeCode(metadata, { clientId, code: code!, verifier: 'x'.repeat(43) });
    expect(token).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  });

  it('plain PKCE, and no PKCE at all', async () => {
    const plain = await authorize(metadata, { clientId, apiKey: company.key, codeChallenge: 'a'.repeat(43), codeChallengeMethod: 'plain' });
    expect(plain.callback?.searchParams.get('error')).toBe('invalid_request');
    const none = await authorize(metadata, { clientId, apiKey: company.key, codeChallenge: '', codeChallengeMethod: '' });
    expect(none.callback?.searchParams.get('error')).toBe('invalid_request');
  });

  it('a code used twice', async () => {
    const { outcome, code } = await codeFor(clientId);
    expect((await exchangeCode(metadata, { clientId, code: code!, verifier: outcome.verifier })).status).toBe(200);
    expect(await exchangeCode(metadata, { clientId, code: code!, verifier: outcome.verifier })).toMatchObject({
      status: 400,
      json: { error: 'invalid_grant' },
    });
  });

  it('a redirect URI that was not registered', async () => {
    const outcome = await authorize(metadata, { clientId, apiKey: company.key, redirectUri: 'https://attacker.example/cb' });
    expect(outcome.callback).toBeUndefined();
    expect(outcome.stoppedAt?.status).toBe(400);
  });

  it('another resource than the MCP URL', async () => {
    const outcome = await authorize(metadata, { clientId, apiKey: company.key, resource: 'https://other.example/mcp' });
    expect(outcome.callback?.searchParams.get('error')).toBe('invalid_target');
  });

  it('a wrong API key on the consent page, an sdk key, and a denial', async () => {
    const wrong = await authorize(metadata, { clientId, apiKey: 'talao_hml_0000000000000000_' + 'A'.repeat(43) });
    expect(wrong.stoppedAt).toMatchObject({ status: 400, text: expect.stringContaining('Unknown, malformed or revoked API key') });
    const sdk = await createCompanyWithKey(gateway, { context: 'sdk' });
    const sdkOutcome = await authorize(metadata, { clientId, apiKey: sdk.key });
    expect(sdkOutcome.stoppedAt).toMatchObject({ status: 400, text: expect.stringContaining('context') });
    const denied = await authorize(metadata, { clientId, apiKey: company.key, action: 'deny' });
    expect(denied.callback?.searchParams.get('error')).toBe('access_denied');
  });

  it('a token whose audience or expiry was altered (the signature no longer verifies)', async () => {
    const { accessToken } = await obtainTokens(issuer, { apiKey: company.key });
    const [header, payload, signature] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = (changes: Record<string, unknown>) =>
      `${header}.${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${signature}`;
    for (const token of [forged({ aud: 'https://other.example/mcp' }), forged({ exp: Math.floor(Date.now() / 1000) - 60 })]) {
      const response = await gateway.request('GET', '/api/v1/invoices', { token });
      expect(response.status).toBe(401);
    }
  });

  it('a revoked refresh token, and every token of a revoked API key', async () => {
    const own = await createCompanyWithKey(gateway);
    const tokens = await obtainTokens(issuer, { apiKey: own.key });
    expect(await revoke(metadata, { clientId: tokens.clientId, token: tokens.refreshToken })).toBe(200);
    expect((await refresh(metadata, { clientId: tokens.clientId, refreshToken: tokens.refreshToken })).status).toBe(400);

    expect((await gateway.request('GET', '/api/v1/me', { token: tokens.accessToken })).status).toBe(200);
    expect((await gateway.admin('DELETE', `/admin/v1/api-keys/${own.apiKeyId}`)).status).toBeLessThan(300);
    const after = await gateway.request('GET', '/api/v1/me', { token: tokens.accessToken });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ detail: expect.stringContaining('revoked') });
  });
});

it('hostile input to the OAuth endpoints (form-encoded, outside the OpenAPI document) answers 4xx, never 5xx', async () => {
  const { client_id: clientId } = await registerClient(metadata);
  const { outcome } = await codeFor(clientId!, { action: 'deny' });
  expect(outcome.callback).toBeDefined();
  const bodies = [
    '',
    'grant_type=authorization_code',
    'grant_type=refresh_token&refresh_token=%00%ff',
    `grant_type=authorization_code&code=${'a'.repeat(100_000)}`,
    'grant_type[]=x&code=1',
    '%%%%',
    '{"grant_type":"authorization_code"}',
    'client_id=__proto__&grant_type=authorization_code&code=x&code_verifier=y',
  ];
  const targets = [
    ['POST', metadata.token_endpoint, 'application/x-www-form-urlencoded'],
    ['POST', metadata.token_endpoint, 'application/json'],
    ['POST', metadata.revocation_endpoint, 'application/x-www-form-urlencoded'],
    ['POST', metadata.registration_endpoint, 'application/json'],
    ['POST', `${issuer}/interaction/nosuchinteraction`, 'application/x-www-form-urlencoded'],
    ['GET', `${issuer}/interaction/nosuchinteraction`, 'text/plain'],
    ['GET', `${metadata.authorization_endpoint}?client_id=%00&response_type=code`, 'text/plain'],
    ['GET', `${metadata.authorization_endpoint}?client_id=${clientId}&redirect_uri=%ff&response_type=code`, 'text/plain'],
    ['POST', `${issuer}/interaction/${'x'.repeat(200)}`, 'multipart/form-data'],
  ] as const;
  const statuses: number[] = [];
  for (const [method, url, contentType] of targets) {
    for (const body of method === 'GET' ? [undefined] : bodies) {
      const response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: { 'content-type': contentType },
        ...(body !== undefined && { body }),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
      if (response.status >= 500)
        throw new Error(`${method} ${url} (${contentType}) body ${JSON.stringify(body?.slice(0, 80))} → ${response.status}`);
    }
  }
  expect(statuses.every((status) => status >= 300 && status < 500)).toBe(true);
});
