// Every spelling of a route spends the allowance the route is limited by: case variants, the absolute form of the
// request target and a forged X-Forwarded-For reach no other allowance (issue 15, defects 6–8).
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { rawRequest } from '../testing/raw-http.js';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

jest.setTimeout(60_000);

describe('rate limits follow the route, however it is spelled (real Redis)', () => {
  let gateway: TestGateway;
  let port: number;
  let callers: Awaited<ReturnType<typeof createCompanyWithKey>>[];

  beforeAll(async () => {
    // The two callers spend 4 of the admin allowance of 6.
    gateway = await startTestGateway({ RATE_LIMIT_CREATE_INVOICE: '1', RATE_LIMIT_ADMIN: '6', RATE_LIMIT_UNAUTHENTICATED: '3' });
    port = Number(new URL(gateway.baseUrl).port);
    callers = [await createCompanyWithKey(gateway), await createCompanyWithKey(gateway)];
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('routes case-sensitively: POST /api/v1/INVOICES is not a way around create_invoice', async () => {
    const { key, companyId } = callers[0]!;
    const first = await gateway.request('POST', '/api/v1/invoices', { token: key, body: sampleNfeRequest() });
    expect(first.headers.get('x-ratelimit-limit')).toBe('1');
    expect((await gateway.request('POST', '/api/v1/invoices', { token: key, body: sampleNfeRequest() })).status).toBe(429);
    for (const path of ['/api/v1/INVOICES', '/api/v1/Invoices', '/API/V1/invoices']) {
      const variant = await gateway.request('POST', path, { token: key, body: sampleNfeRequest() });
      expect({ path, status: variant.status, detail: ((await variant.json()) as { detail: unknown }).detail }).toEqual({
        path,
        status: 404,
        detail: 'Not found',
      });
      expect(variant.headers.get('x-ratelimit-limit')).not.toBeNull();
    }
    expect(await gateway.resources.prisma.invoice.count({ where: { companyId } })).toBe(0);
    // The admin API is case-sensitive too: no admin route answers under /ADMIN/V1.
    const upper = await gateway.request('GET', '/ADMIN/V1/companies/00000000-0000-4000-8000-000000000000', {
      token: gateway.config.adminToken,
    });
    expect(upper.status).toBe(404);
  });

  it('limits and authenticates absolute-form request targets like their origin form', async () => {
    const { key } = callers[1]!;
    const me = await rawRequest(
      port,
      `GET http://127.0.0.1:${port}/api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(me.status).toBe(200);
    expect(me.headers['x-ratelimit-limit']).toBe('300');

    // Admin-token guessing through the absolute form spends what is left of the admin allowance (2), then 429.
    const guesses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const guess = await rawRequest(
        port,
        `GET http://localhost:${port}/admin/v1/companies/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer guess-${i}\r\nConnection: close\r\n\r\n`,
      );
      expect(guess.headers['x-ratelimit-limit']).toBeDefined();
      guesses.push(guess.status);
    }
    expect(guesses).toEqual([401, 401, 429, 429, 429]);
  });
});

describe('client IPs (real Redis)', () => {
  const guess = (gateway: TestGateway, forwardedFor: string) =>
    gateway.request('GET', '/api/v1/me', { token: 'talao_hml_guess', headers: { 'x-forwarded-for': forwardedFor } });

  it('ignores X-Forwarded-For by default: rotating it does not reset the unauthenticated allowance', async () => {
    const gateway = await startTestGateway({ RATE_LIMIT_UNAUTHENTICATED: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await guess(gateway, `10.0.0.${i + 1}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await gateway.close();
    }
  });

  it('believes X-Forwarded-For from the proxies TRUSTED_PROXIES lists', async () => {
    const gateway = await startTestGateway({ RATE_LIMIT_UNAUTHENTICATED: '3', TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await guess(gateway, `10.0.0.${i + 1}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      for (let i = 0; i < 3; i++) await guess(gateway, '10.9.9.9');
      expect((await guess(gateway, '10.9.9.9')).status).toBe(429);
    } finally {
      await gateway.close();
    }
  });
});
