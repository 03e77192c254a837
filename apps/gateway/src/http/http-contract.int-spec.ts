import { jest } from '@jest/globals';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

// Boots, RSA key generation and PKCS#12 writing are slow on a loaded 2-core machine.
jest.setTimeout(30_000);

function expectRateLimitHeaders(response: Response, limit: number): void {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 61);
}

describe('HTTP contract: rate limits (real Redis)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ RATE_LIMIT_GET_ME: '3', RATE_LIMIT_UNAUTHENTICATED: '4', RATE_LIMIT_GET_COMPANY: '50' });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('counts each key on its own and answers 429 with Retry-After past the limit', async () => {
    const a = await createCompanyWithKey(gateway);
    const b = await createCompanyWithKey(gateway);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await gateway.request('GET', '/api/v1/me', { token: a.key });
      expect(ok.status).toBe(200);
      expectRateLimitHeaders(ok, 3);
      remaining.push(ok.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await gateway.request('GET', '/api/v1/me', { token: a.key });
    expect(refused.status).toBe(429);
    expectRateLimitHeaders(refused, 3);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as { detail: unknown };
    expect(body.detail).toEqual(expect.stringMatching(/Rate limit of 3 requests per minute exceeded/));

    // Key b has its own allowance, and a's other operations are counted apart.
    const other = await gateway.request('GET', '/api/v1/me', { token: b.key });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
    const profile = await gateway.request('GET', `/api/v1/companies/${a.companyId}`, { token: a.key });
    expect(profile.status).toBe(200);
    expectRateLimitHeaders(profile, 50);
  });

  it('puts the headers on error responses too, and limits unauthenticated callers per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await gateway.request('GET', '/api/v1/me', { token: 'talao_hml_bogus' });
      expectRateLimitHeaders(response, 4);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});

describe('HTTP contract: errors, bodies, versioning, documents', () => {
  let gateway: TestGateway;
  let key: string;
  let companyId: string;

  beforeAll(async () => {
    gateway = await startTestGateway({
      API_V1_DEPRECATED_AT: '2027-01-01T00:00:00Z',
      API_V1_SUNSET_AT: '2027-07-01T00:00:00Z',
      API_V1_DEPRECATION_LINK: 'https://docs.talao.example/migrate-to-v2',
    });
    ({ key, companyId } = await createCompanyWithKey(gateway));
  });
  afterAll(async () => {
    await gateway.close();
  });

  async function expectEnvelope(response: Response, status: number, detail: RegExp): Promise<void> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text).not.toMatch(/stack|at .*\.js:\d+|prisma|SyntaxError|body-parser/i);
    expect(JSON.parse(text)).toEqual({ detail: expect.stringMatching(detail), request_id: response.headers.get('x-request-id') });
    expectRateLimitHeaders(response, Number(response.headers.get('x-ratelimit-limit')));
  }

  it('answers an unknown route with 404 in the envelope', async () => {
    await expectEnvelope(await gateway.request('GET', '/api/v1/nothing-here', { token: key }), 404, /^Not found$/);
    await expectEnvelope(await gateway.request('GET', '/api/v1/nothing-here'), 404, /^Not found$/);
  });

  it('answers malformed JSON with 422, an oversized body with 413, another content type with 415', async () => {
    const admin = { authorization: `Bearer ${gateway.config.adminToken}`, 'content-type': 'application/json' };
    const malformed = await fetch(`${gateway.baseUrl}/admin/v1/companies`, { method: 'POST', headers: admin, body: '{"tax_id": "1234' });
    await expectEnvelope(malformed, 422, /not valid JSON/);
    const big = JSON.stringify({ legal_name: 'x'.repeat(1024 * 1024 + 10) });
    const oversized = await fetch(`${gateway.baseUrl}/admin/v1/companies`, { method: 'POST', headers: admin, body: big });
    await expectEnvelope(oversized, 413, /exceeds 1 MiB/);
    const text = await fetch(`${gateway.baseUrl}/admin/v1/companies`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'text/plain' },
      body: 'hello',
    });
    await expectEnvelope(text, 415, /application\/json/);
    const apiMalformed = await gateway.request('POST', '/api/v1/invoices', { token: key, body: '{' });
    await expectEnvelope(apiMalformed, 422, /not valid JSON/);
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const mine = await gateway.request('GET', '/api/v1/me', { token: key, headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const insane = await gateway.request('GET', '/api/v1/me', { token: key, headers: { 'x-request-id': 'a b c' } });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds Deprecation, Sunset and Link to every /api/v1 response when v1 is deprecated', async () => {
    for (const response of [
      await gateway.request('GET', '/api/v1/me', { token: key }),
      await gateway.request('GET', '/api/v1/me'),
      await gateway.request('GET', `/api/v1/companies/${companyId}`, { token: key }),
      await gateway.request('GET', '/api/v1/openapi.json'),
    ]) {
      expect(response.headers.get('deprecation')).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
      expect(response.headers.get('sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
      expect(response.headers.get('link')).toBe('<https://docs.talao.example/migrate-to-v2>; rel="deprecation"');
    }
    const health = await gateway.request('GET', '/healthz');
    expect(health.headers.get('deprecation')).toBeNull();
  });

  it('serves an OpenAPI 3.1 document listing the routes, and a docs page without a CDN', async () => {
    const response = await gateway.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      expect.arrayContaining([
        '/api/v1/me',
        '/api/v1/companies/{company_id}',
        '/admin/v1/companies',
        '/admin/v1/companies/{id}',
        '/admin/v1/companies/{id}/certificate',
        '/admin/v1/companies/{id}/api-keys',
        '/admin/v1/api-keys/{id}',
      ]),
    );
    expect(Object.keys(document.paths['/admin/v1/companies/{id}/certificate']!)).toEqual(['put']);
    const text = JSON.stringify(document);
    expect(text).not.toContain('"nullable"');
    expect(document.components.schemas.Company).toMatchObject({ properties: { trade_name: { type: ['string', 'null'] } } });
    const docs = await gateway.request('GET', '/api/v1/docs');
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/https?:\/\/(?:unpkg|cdn|cdnjs|fonts)\./);
    const asset = await gateway.request('GET', '/api/v1/docs/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
  });
});
