import { jest } from '@jest/globals';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

// Boots, RSA key generation and PKCS#12 writing are slow on a loaded 2-core machine.
jest.setTimeout(30_000);

// One gateway serves both groups: every test creates the companies and keys it uses.
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway.close();
});

describe('API key authentication (real PostgreSQL and Redis)', () => {
  async function expect401(response: Response, detail: RegExp): Promise<void> {
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const body = (await response.json()) as { detail: unknown; request_id: unknown };
    expect(body.detail).toEqual(expect.stringMatching(detail));
    expect(body.request_id).toBe(response.headers.get('x-request-id'));
  }

  it('answers /me for a valid key of context api', async () => {
    const caller = await createCompanyWithKey(gateway, { environment: 'production', name: 'erp' });
    const response = await gateway.request('GET', '/api/v1/me', { token: caller.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      company: { id: caller.companyId, tax_id: caller.taxId, name: 'Teste' },
      environment: 'production',
      api_key: { id: caller.apiKeyId, name: 'erp', prefix: expect.any(String) },
    });
  });

  it('refuses a missing header, another scheme, a malformed key and an unknown key', async () => {
    await expect401(await gateway.request('GET', '/api/v1/me'), /^Missing API key/);
    await expect401(await gateway.request('GET', '/api/v1/me', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), /Bearer scheme/);
    await expect401(await gateway.request('GET', '/api/v1/me', { token: 'not-a-talao-key' }), /^Malformed API key$/);
    const { key } = await createCompanyWithKey(gateway);
    // Same shape as a real key, different secret: well-formed but unknown.
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    await expect401(await gateway.request('GET', '/api/v1/me', { token: `${key.slice(0, -1)}${last}` }), /^Unknown or revoked API key$/);
  });

  it('refuses a revoked key at once', async () => {
    const { key, apiKeyId } = await createCompanyWithKey(gateway);
    expect((await gateway.request('GET', '/api/v1/me', { token: key })).status).toBe(200);
    const revoked = await gateway.admin('DELETE', `/admin/v1/api-keys/${apiKeyId}`);
    expect(revoked.status).toBe(204);
    await expect401(await gateway.request('GET', '/api/v1/me', { token: key }), /revoked/);
    expect((await gateway.admin('DELETE', `/admin/v1/api-keys/${apiKeyId}`)).status).toBe(404);
    expect((await gateway.admin('DELETE', '/admin/v1/api-keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await gateway.admin('DELETE', '/admin/v1/api-keys/not-a-uuid')).status).toBe(404);
  });

  it('refuses a key of context sdk (the default context)', async () => {
    const { companyId } = await createCompanyWithKey(gateway);
    const created = await gateway.admin('POST', `/admin/v1/companies/${companyId}/api-keys`, { name: 'sdk', environment: 'homologation' });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { key: string; context: string };
    expect(body.context).toBe('sdk');
    await expect401(await gateway.request('GET', '/api/v1/me', { token: body.key }), /context "sdk"/);
  });

  it("answers 404 for another company's resource, and the caller's own profile otherwise", async () => {
    const mine = await createCompanyWithKey(gateway);
    const theirs = await createCompanyWithKey(gateway);
    const own = await gateway.request('GET', `/api/v1/companies/${mine.companyId}`, { token: mine.key });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      id: mine.companyId,
      tax_id: mine.taxId,
      address: { city_code: '3550308', city: 'São Paulo' },
    });
    // The id in capitals is the same id, as on every other route.
    expect((await gateway.request('GET', `/api/v1/companies/${mine.companyId.toUpperCase()}`, { token: mine.key })).status).toBe(200);
    const other = await gateway.request('GET', `/api/v1/companies/${theirs.companyId}`, { token: mine.key });
    expect(other.status).toBe(404);
    const missing = await gateway.request('GET', '/api/v1/companies/00000000-0000-4000-8000-000000000000', { token: mine.key });
    expect(missing.status).toBe(404);
    expect(await other.json()).toEqual({ detail: 'Company not found', request_id: expect.any(String) });
  });
});

describe('API keys (admin)', () => {
  it('allows 3 active keys per company; a 4th is 409 until one is revoked', async () => {
    const { companyId, apiKeyId } = await createCompanyWithKey(gateway);
    const create = (name: string) =>
      gateway.admin('POST', `/admin/v1/companies/${companyId}/api-keys`, { name, environment: 'homologation', context: 'api' });
    expect((await create('second')).status).toBe(201);
    expect((await create('third')).status).toBe(201);
    const fourth = await create('fourth');
    expect(fourth.status).toBe(409);
    expect(await fourth.json()).toEqual({ detail: expect.stringMatching(/3 active API keys/), request_id: expect.any(String) });
    expect((await gateway.admin('DELETE', `/admin/v1/api-keys/${apiKeyId}`)).status).toBe(204);
    expect((await create('fourth')).status).toBe(201);
  });

  it('shows the key once and stores only its hash', async () => {
    const { apiKeyId, key } = await createCompanyWithKey(gateway, { environment: 'production' });
    expect(key).toMatch(/^talao_prd_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const row = await gateway.resources.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKeyId } });
    const secret = key.split('_').slice(3).join('_');
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(secret);
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(row.prefix) || key.includes(row.prefix)).toBe(true);
  });

  it('validates the request', async () => {
    const { companyId } = await createCompanyWithKey(gateway);
    const bad = await gateway.admin('POST', `/admin/v1/companies/${companyId}/api-keys`, { name: '', environment: 'staging' });
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { detail: { errors: { field: string }[] } };
    expect(body.detail.errors.map((e) => e.field).sort()).toEqual(['environment', 'name']);
    const unknownCompany = await gateway.admin('POST', '/admin/v1/companies/00000000-0000-4000-8000-000000000000/api-keys', {
      name: 'x',
      environment: 'production',
    });
    expect(unknownCompany.status).toBe(404);
  });

  it('refuses admin calls without the admin token', async () => {
    const none = await gateway.request('POST', '/admin/v1/companies', { body: {} });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await gateway.request('GET', '/admin/v1/companies/00000000-0000-4000-8000-000000000000', { token: 'x'.repeat(48) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: 'Invalid admin token', request_id: expect.any(String) });
  });
});
