// SPEC.md against the running gateway, issuer and simulator: "Errors" (every status of the table but 429, which
// limits.e2e-spec.ts produces), the idempotency rule of "Rules by endpoint" (2) and "Authentication".
import { jest } from '@jest/globals';
import { ApiKeysRepository } from '@talao/persistence';
import { startPlatform } from '../issuance/support/platform.js';
import {
  type Answer,
  call,
  expectFieldErrorEnvelope,
  invoiceIdOf,
  issue,
  nfeWithFirstItem,
  nfeWithoutItemValues,
  rejectedNfe,
  sampleNfeRequest,
} from './support/contract.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

// Revocations below are made in the database, as the admin CLI makes them: no key cache, so they apply at once.
const p = startedForFile('platform', () => startPlatform('contract-errors', { gatewayEnv: { API_KEY_CACHE_TTL_MS: '0' } }));

afterEach(async () => {
  await p.sim.control('DELETE', '/_control/faults');
});

type Json = Record<string, unknown>;

/** Every error: `detail` (a string here) and the request id, with the rate-limit headers like every response. */
function expectStringDetail(answer: Answer, status: number, detail: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ detail: expect.stringMatching(detail), request_id: answer.headers.get('x-request-id') });
  expect(answer.headers.get('x-ratelimit-limit')).toMatch(/^[0-9]+$/);
}

describe('SPEC.md "Errors"', () => {
  it('400 invalid configuration: a string naming what the issuer lacks (certificate; state registration)', async () => {
    const company = await p.createCompany({ certificate: false });
    expectStringDetail(await issue(p, company), 400, /certificate/);
    const registered = await p.createCompany();
    await p.prisma.company.update({ where: { id: registered.id }, data: { stateRegistration: null } });
    expectStringDetail(await issue(p, registered), 400, /state registration/);
  });

  it('402 quota reached: a production key of a trial plan used up (401: see Authentication below)', async () => {
    const company = await p.createCompany({ productionQuota: 0 });
    expectStringDetail(await call(p, 'POST', '/api/v1/invoices', { key: company.productionKey, body: sampleNfeRequest() }), 402, /quota/);
    // Homologation is free and unlimited.
    expect((await issue(p, company)).status).toBe(201);
  });

  it('404 not found: no document with that access key or invoice_id belongs to the company behind the key', async () => {
    const owner = await p.createCompany();
    const created = await issue(p, owner);
    const stranger = await p.createCompany();
    const key = String(created.body['access_key']);
    const id = String(created.body['invoice_id']);
    for (const answer of [
      await call(p, 'GET', `/api/v1/invoices/${key}?document_type=nfe`, { key: stranger.homologationKey }),
      await call(p, 'GET', `/api/v1/invoices/${id}?document_type=nfe`, { key: stranger.homologationKey }),
      await call(p, 'GET', `/api/v1/invoices/${id}/submissions`, { key: stranger.homologationKey }),
      await call(p, 'POST', `/api/v1/invoices/${id}/reissue`, { key: stranger.homologationKey }),
      await call(p, 'GET', `/api/v1/invoices/${key}?document_type=nfe`, { key: owner.productionKey }),
      await call(p, 'GET', '/api/v1/invoices/00000000-0000-4000-8000-000000000000/submissions', { key: owner.homologationKey }),
    ]) {
      expectStringDetail(answer, 404, /^Invoice not found$/);
    }
  });

  it('409 operation conflict: a reissue that does not apply (an issued invoice; an attempt already reissued); a number already used', async () => {
    const company = await p.createCompany();
    const issued = await issue(p, company, sampleNfeRequest({ number: 9 }));
    expectStringDetail(
      await call(p, 'POST', `/api/v1/invoices/${String(issued.body['invoice_id'])}/reissue`, { key: company.homologationKey }),
      409,
      /rejected or failed/,
    );
    expectStringDetail(await issue(p, company, sampleNfeRequest({ number: 9 })), 409, /already used/);
    const invoiceId = invoiceIdOf(await rejectedNfe(p, company));
    expect((await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey })).status).toBe(201);
    const again = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey });
    expect(again.status).toBe(409);
    expect(again.body['detail']).toMatchObject({ invoice_id: invoiceId, replaced_by: expect.any(String) });
  });

  it('422 validation error: the item total mismatch (ITEM_TOTAL_MISMATCH on items[0].amount), a missing amount, an unknown field', async () => {
    const company = await p.createCompany();
    const mismatch = await issue(p, company, nfeWithFirstItem({ amount: '1.00' }));
    expectFieldErrorEnvelope(mismatch, 'ITEM_TOTAL_MISMATCH', 'items[0].amount');
    expectFieldErrorEnvelope(await issue(p, company, nfeWithoutItemValues()), 'ITEM_AMOUNT_MISSING', 'items[0].amount');
    expectFieldErrorEnvelope(await issue(p, company, sampleNfeRequest({ discout: '1.00' })), 'FIELD_UNKNOWN', 'discout');
    expect(await p.prisma.invoice.count({ where: { companyId: company.id } })).toBe(0);
  });

  it('422 from the list and the consult in the same shape as POST: unknown parameters, out of range, missing document_type', async () => {
    const company = await p.createCompany();
    const get = (path: string) => call(p, 'GET', path, { key: company.homologationKey });
    expectFieldErrorEnvelope(await get('/api/v1/invoices?statuss=issued'), 'FIELD_UNKNOWN', 'statuss');
    expectFieldErrorEnvelope(await get('/api/v1/invoices?page_size=101'), 'FIELD_OUT_OF_RANGE', 'page_size');
    expectFieldErrorEnvelope(await get('/api/v1/invoices?page=0'), 'FIELD_OUT_OF_RANGE', 'page');
    expectFieldErrorEnvelope(await get('/api/v1/invoices?status=authorized'), 'FIELD_INVALID', 'status');
    expectFieldErrorEnvelope(await get('/api/v1/invoices?status=issued&status=rejected'), 'FIELD_INVALID', 'status');
    const both = await get('/api/v1/invoices?page=x&foo=1');
    expect((both.body['errors'] as Json[]).map((e) => [e['code'], e['field']])).toEqual(
      expect.arrayContaining([
        ['FIELD_INVALID', 'page'],
        ['FIELD_UNKNOWN', 'foo'],
      ]),
    );
    const key = '35261199999999000191550010000000011000000010';
    expectFieldErrorEnvelope(await get(`/api/v1/invoices/${key}`), 'FIELD_REQUIRED', 'document_type');
    expectFieldErrorEnvelope(await get(`/api/v1/invoices/${key}?document_type=nfce`), 'FIELD_INVALID', 'document_type');
    expectFieldErrorEnvelope(await get(`/api/v1/invoices/${key}?document_type=nfe&verbose=1`), 'FIELD_UNKNOWN', 'verbose');
    expectFieldErrorEnvelope(
      await get('/api/v1/invoices/00000000-0000-4000-8000-000000000000/submissions?page=1'),
      'FIELD_UNKNOWN',
      'page',
    );
  });

  it('501 not implemented: signing for that document type (a fiscal document the service does not sign)', async () => {
    const company = await p.createCompany();
    expectStringDetail(await issue(p, company, sampleNfeRequest({ document_type: 'nfce' })), 501, /NFC-e.*not implemented/);
    expectStringDetail(await issue(p, company, sampleNfeRequest({ document_type: 'cte' })), 501, /CT-e.*not implemented/);
    // Not a fiscal document at all: a validation error.
    expect((await issue(p, company, sampleNfeRequest({ document_type: 'receipt' }))).status).toBe(422);
  });

  it('502 authorizer rejected: detail.message is the authorizer’s message, detail.invoice_id the attempt to look up', async () => {
    const company = await p.createCompany();
    const rejected = await rejectedNfe(p, company);
    expect(rejected.body).toEqual({
      detail: { message: expect.stringMatching(/NCM/), invoice_id: expect.any(String), code: '778' },
      request_id: rejected.headers.get('x-request-id'),
    });
    const submissions = await call(p, 'GET', `/api/v1/invoices/${invoiceIdOf(rejected)}/submissions`, { key: company.homologationKey });
    expect(submissions.status).toBe(200);
    expect(String((submissions.body['data'] as Json[])[0]!['response_body'])).toContain('<cStat>778</cStat>');
  });
});

describe('SPEC.md "Rules by endpoint" 2: Idempotency-Key', () => {
  it('same key and body → the first response (no second document); another body → 422; another company → its own', async () => {
    const company = await p.createCompany();
    const headers = { 'idempotency-key': 'order-1001' };
    const first = await issue(p, company, sampleNfeRequest(), headers);
    expect(first.status).toBe(201);
    const replay = await issue(p, company, sampleNfeRequest(), headers);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await p.prisma.invoice.count({ where: { companyId: company.id } })).toBe(1);
    expectStringDetail(await issue(p, company, nfeWithFirstItem({ description: 'Another sale' }), headers), 422, /Idempotency-Key/);
    expectStringDetail(await issue(p, company, sampleNfeRequest(), { 'idempotency-key': 'k'.repeat(256) }), 422, /255/);
    const other = await p.createCompany();
    expect((await issue(p, other, sampleNfeRequest(), headers)).status).toBe(201);
  });

  it('same key while the first call runs → 409; a rejection is replayed as the same 502', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/SP', { latencyMs: 800 });
    const headers = { 'idempotency-key': 'order-1002' };
    const [a, b] = await Promise.all([issue(p, company, sampleNfeRequest(), headers), issue(p, company, sampleNfeRequest(), headers)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    await p.sim.control('DELETE', '/_control/faults');
    await p.sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
    const rejectedHeaders = { 'idempotency-key': 'order-1003' };
    const rejected = await issue(p, company, sampleNfeRequest(), rejectedHeaders);
    expect(rejected.status).toBe(502);
    const replayed = await issue(p, company, sampleNfeRequest(), rejectedHeaders);
    expect(replayed.status).toBe(502);
    expect(replayed.body['detail']).toEqual(rejected.body['detail']);
  });
});

describe('SPEC.md "Authentication"', () => {
  const apiKeys = () => new ApiKeysRepository(p.prisma);

  it('401 for a missing, malformed, unknown, revoked or sdk-context token, with WWW-Authenticate; the key decides company and environment', async () => {
    const company = await p.createCompany();
    // Three keys per company at most: the company has two, so the revoked one goes before the sdk one is made.
    const revoked = await apiKeys().create({ companyId: company.id, name: 'old', environment: 'homologation', context: 'api' });
    await apiKeys().revoke(revoked.apiKey.id);
    const sdk = await apiKeys().create({ companyId: company.id, name: 'sdk', environment: 'homologation', context: 'sdk' });
    const unknown = `${company.homologationKey.slice(0, -4)}AAAA`;
    for (const answer of [
      await call(p, 'GET', '/api/v1/invoices'),
      await call(p, 'GET', '/api/v1/invoices', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
      await call(p, 'GET', '/api/v1/invoices', { key: 'not-a-key' }),
      await call(p, 'GET', '/api/v1/invoices', { key: unknown }),
      await call(p, 'GET', '/api/v1/invoices', { key: revoked.secret }),
      await call(p, 'GET', '/api/v1/invoices', { key: sdk.secret }),
      await call(p, 'POST', '/api/v1/invoices', { key: sdk.secret, body: sampleNfeRequest() }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="talao"');
      expect(answer.body).toEqual({ detail: expect.any(String), request_id: expect.any(String) });
    }
    // The environment is the key's: a production key's list does not show homologation documents, nor the reverse.
    expect((await issue(p, company)).status).toBe(201);
    expect((await call(p, 'GET', '/api/v1/invoices', { key: company.productionKey })).body).toMatchObject({ total: 0 });
    expect((await call(p, 'GET', '/api/v1/invoices', { key: company.homologationKey })).body).toMatchObject({ total: 1 });
    const me = await call(p, 'GET', '/api/v1/me', { key: company.productionKey });
    expect(me.body).toMatchObject({ company: { id: company.id }, environment: 'production' });
  });
});
