// SPEC.md "Limits" against the running gateway: per API key, every response with X-RateLimit-Limit, -Remaining and
// -Reset (epoch), 429 with Retry-After and a string detail. Small overrides (RATE_LIMIT_<NAME>) reach 429 quickly;
// records-and-states.e2e-spec.ts checks the stated values themselves on a gateway without overrides.
import { jest } from '@jest/globals';
import { startPlatform } from '../issuance/support/platform.js';
import { type Answer, call, issue, nfeWithFirstItem, sampleNfeRequest } from './support/contract.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

const p = startedForFile('platform', () =>
  startPlatform('contract-limits', {
    gatewayEnv: { RATE_LIMIT_CREATE_INVOICE: '3', RATE_LIMIT_LIST_INVOICES: '4', RATE_LIMIT_UNAUTHENTICATED: '3' },
  }),
);

function expectLimitHeaders(answer: Answer, limit: number, remaining: number): void {
  expect(answer.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(answer.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 61);
}

function expectRefused(answer: Answer, limit: number): void {
  expect(answer.status).toBe(429);
  expectLimitHeaders(answer, limit, 0);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  expect(answer.body).toEqual({
    detail: expect.stringMatching(`Rate limit of ${limit} requests per minute`),
    request_id: answer.headers.get('x-request-id'),
  });
}

describe('SPEC.md "Limits"', () => {
  it('counts per API key: every answer (201, 422) carries the headers; past the limit 429; another company’s key and another operation are untouched', async () => {
    const a = await p.createCompany();
    const b = await p.createCompany();
    const issued = await issue(p, a);
    expect(issued.status).toBe(201);
    expectLimitHeaders(issued, 3, 2);
    const invalid = await issue(p, a, nfeWithFirstItem({ amount: '1.00' }));
    expect(invalid.status).toBe(422);
    expectLimitHeaders(invalid, 3, 1);
    expectLimitHeaders(await issue(p, a, nfeWithFirstItem({ amount: '1.00' })), 3, 0);
    expectRefused(await issue(p, a), 3);
    expect(await p.prisma.invoice.count({ where: { companyId: a.id } })).toBe(1);

    // Company b's key has its own allowance; so does a's production key; and a's other operations count apart.
    expectLimitHeaders(await issue(p, b), 3, 2);
    expectLimitHeaders(
      await call(p, 'POST', '/api/v1/invoices', { key: a.productionKey, body: nfeWithFirstItem({ amount: '1.00' }) }),
      3,
      2,
    );
    const list = await call(p, 'GET', '/api/v1/invoices', { key: a.homologationKey });
    expect(list.status).toBe(200);
    expectLimitHeaders(list, 4, 3);
  });

  it('the list: 4 answers, then 429 on a 422 route too (the count comes before the route)', async () => {
    const company = await p.createCompany();
    for (let remaining = 3; remaining >= 0; remaining--) {
      expectLimitHeaders(await call(p, 'GET', '/api/v1/invoices?statuss=x', { key: company.homologationKey }), 4, remaining);
    }
    expectRefused(await call(p, 'GET', '/api/v1/invoices', { key: company.homologationKey }), 4);
  });

  it('without a valid key: 401 with the headers, counted per client IP, then 429', async () => {
    for (let remaining = 2; remaining >= 0; remaining--) {
      const answer = await call(p, 'POST', '/api/v1/invoices', { body: sampleNfeRequest() });
      expect(answer.status).toBe(401);
      expectLimitHeaders(answer, 3, remaining);
    }
    expectRefused(await call(p, 'GET', '/api/v1/invoices', { key: 'talao_hml_0000000000000000_bogus' }), 3);
  });
});
