// SPEC.md against the running gateway, issuer and simulator, section by section: "Invoice record" (the record and the
// answers of POST /invoices), the list envelope, "States and transitions" (reissue, once) and the submissions.
import { jest } from '@jest/globals';
import { type Platform, startPlatform } from '../issuance/support/platform.js';
import { type Answer, call, invoiceIdOf, issue, RECORD_FIELDS, rejectedNfe, sampleNfeRequest, sampleNfse } from './support/contract.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

// Retries and backoff are job options, set by the gateway that enqueues: two quick tries, so `failed` comes within the wait.
const retries = { QUEUE_ISSUANCE_ATTEMPTS: '2', QUEUE_ISSUANCE_BACKOFF_MS: '100' };
const p = startedForFile('platform', () =>
  startPlatform('contract-records', { issuerEnv: retries, gatewayEnv: { ...retries, ISSUE_WAIT_MS: '3000' } }),
);

afterEach(async () => {
  await p.sim.control('DELETE', '/_control/faults');
});

type Json = Record<string, unknown>;

/** The record's amount exactly as written on the wire: the number token, digit for digit. */
const amountTokens = (answer: Answer) => [...answer.text.matchAll(/"amount":(-?[0-9.]+)[,}]/g)].map((m) => m[1]);

describe('SPEC.md "Invoice record"', () => {
  it('NF-e: 201 with the record — access_key, status issued, protocol, amount as a number from the decimal — and the same record in the list and the consult', async () => {
    const company = await p.createCompany();
    const created = await issue(p, company);
    expect(created.status).toBe(201);
    for (const field of [...RECORD_FIELDS, 'access_key']) expect(created.body).toHaveProperty(field);
    expect(created.body).toMatchObject({
      document_type: 'nfe',
      status: 'issued',
      amount: 99.8,
      total_amount: '99.80',
      replaced_by: null,
      reissue_of: null,
    });
    expect(created.body['access_key']).toMatch(/^[0-9]{44}$/);
    expect(created.body['protocol']).toMatch(/^[0-9]{15}$/);
    // Written from the decimal text: 99.80, where a binary float would print 99.8.
    expect(amountTokens(created)).toEqual(['99.80']);

    const list = await call(p, 'GET', '/api/v1/invoices', { key: company.homologationKey });
    expect((list.body['data'] as Json[])[0]).toEqual(created.body);
    expect(amountTokens(list)).toEqual(['99.80']);
    const consulted = await call(p, 'GET', `/api/v1/invoices/${String(created.body['access_key'])}?document_type=nfe`, {
      key: company.homologationKey,
    });
    expect(consulted.status).toBe(200);
    expect(consulted.body['invoice']).toEqual(created.body);
    expect(amountTokens(consulted)).toEqual(['99.80']);
  });

  it('NFS-e: 201 with the 50-digit access key, a protocol, the amount; dps_id additive', async () => {
    const company = await p.createCompany();
    const created = await issue(p, company, sampleNfse());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ document_type: 'nfse', status: 'issued', amount: 1500 });
    expect(amountTokens(created)).toEqual(['1500.00']);
    expect(created.body['access_key']).toMatch(/^[0-9]{50}$/);
    expect(created.body['protocol']).toEqual(expect.any(String));
    expect(created.body['dps_id']).toMatch(/^DPS[0-9]{42}$/);
  });

  it('rejected: 502 { detail: { message: the authorizer’s own, invoice_id } }; the record has neither access key nor protocol', async () => {
    const company = await p.createCompany();
    const rejected = await rejectedNfe(p, company);
    const detail = rejected.body['detail'] as Json;
    expect(detail).toEqual({ message: expect.any(String), invoice_id: expect.any(String), code: '778' });
    const invoiceId = invoiceIdOf(rejected);
    const submissions = await call(p, 'GET', `/api/v1/invoices/${invoiceId}/submissions`, { key: company.homologationKey });
    expect((submissions.body['data'] as Json[])[0]).toMatchObject({
      outcome: 'rejected',
      status_code: '778',
      status_message: detail['message'],
    });

    const consulted = await call(p, 'GET', `/api/v1/invoices/${invoiceId}?document_type=nfe`, { key: company.homologationKey });
    expect(consulted.status).toBe(200);
    const record = consulted.body['invoice'] as Json;
    expect(record).toMatchObject({ invoice_id: invoiceId, status: 'rejected', protocol: null, amount: 99.8, replaced_by: null });
    expect(record).not.toHaveProperty('access_key');
    const listed = await call(p, 'GET', '/api/v1/invoices?status=rejected', { key: company.homologationKey });
    expect(listed.body['data']).toEqual([record]);
  });

  it('additive 202: the record with status processing and protocol null while the authorizer is slow; GET shows it issued later', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/SP', { latencyMs: 4_000 });
    const pending = await issue(p, company);
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: 'processing', protocol: null, amount: 99.8, document_type: 'nfe' });
    expect(pending.body['access_key']).toMatch(/^[0-9]{44}$/);
    expect(pending.headers.get('location')).toBe(`/api/v1/invoices/${String(pending.body['invoice_id'])}?document_type=nfe`);
    await p.sim.control('DELETE', '/_control/faults');
    let record: Json = {};
    for (let i = 0; i < 40 && record['status'] !== 'issued'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      record = (await call(p, 'GET', pending.headers.get('location')!, { key: company.homologationKey })).body['invoice'] as Json;
    }
    expect(record).toMatchObject({ invoice_id: pending.body['invoice_id'], status: 'issued', protocol: expect.any(String) });
  });
});

describe('SPEC.md list envelope (GET /invoices)', () => {
  let company: Awaited<ReturnType<Platform['createCompany']>>;

  beforeAll(async () => {
    company = await p.createCompany();
    for (let i = 0; i < 3; i++) expect((await issue(p, company)).status).toBe(201);
    expect((await issue(p, company, sampleNfse())).status).toBe(201);
    await rejectedNfe(p, company);
    await p.sim.control('DELETE', '/_control/faults');
  });

  const list = (query: string) => call(p, 'GET', `/api/v1/invoices${query}`, { key: company.homologationKey });

  it('total, total_pages, next_page, prev_page and data; filters document_type and status; page and page_size', async () => {
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 5, total_pages: 1, next_page: null, prev_page: null, page: 1, page_size: 20 });
    expect(all.body['data']).toHaveLength(5);

    const issuedNfe = await list('?document_type=nfe&status=issued&page_size=2');
    expect(issuedNfe.body).toMatchObject({ total: 3, total_pages: 2, next_page: 2, prev_page: null });
    const second = await list('?document_type=nfe&status=issued&page_size=2&page=2');
    expect(second.body).toMatchObject({ total: 3, total_pages: 2, next_page: null, prev_page: 1 });
    const rows = [...(issuedNfe.body['data'] as Json[]), ...(second.body['data'] as Json[])];
    expect(rows.map((r) => [r['document_type'], r['status']])).toEqual(Array(3).fill(['nfe', 'issued']));
    expect(new Set(rows.map((r) => r['invoice_id'])).size).toBe(3);

    expect((await list('?document_type=nfse')).body).toMatchObject({ total: 1 });
    expect((await list('?status=rejected')).body).toMatchObject({ total: 1 });
    expect((await list('?status=cancelled')).body).toMatchObject({ total: 0, total_pages: 0, next_page: null, prev_page: null, data: [] });
    // Past the end: no rows, and the previous page is the last one that has rows.
    expect((await list('?page=9&page_size=2')).body).toMatchObject({ total: 5, total_pages: 3, next_page: null, prev_page: 3, data: [] });
    // Another company's invoices are not listed; nor the other environment's.
    const stranger = await p.createCompany();
    expect((await call(p, 'GET', '/api/v1/invoices', { key: stranger.homologationKey })).body).toMatchObject({ total: 0 });
    expect((await call(p, 'GET', '/api/v1/invoices', { key: company.productionKey })).body).toMatchObject({ total: 0 });
  });
});

describe('SPEC.md "Limits": the stated values, per operation', () => {
  it('POST /invoices 60, reissue 60, GET /invoices/{access_key} 120, cancel 120, GET /invoices 600; other routes their documented defaults', async () => {
    const company = await p.createCompany();
    const limitOf = async (method: string, path: string) =>
      (await call(p, method, path, { key: company.homologationKey, ...(method === 'POST' ? { body: {} } : {}) })).headers.get(
        'x-ratelimit-limit',
      );
    const id = '00000000-0000-4000-8000-000000000000';
    const key = '35261199999999000191550010000000011000000010';
    expect(await limitOf('POST', '/api/v1/invoices')).toBe('60');
    expect(await limitOf('POST', `/api/v1/invoices/${id}/reissue`)).toBe('60');
    expect(await limitOf('GET', `/api/v1/invoices/${key}?document_type=nfe`)).toBe('120');
    expect(await limitOf('POST', `/api/v1/invoices/${key}/cancel`)).toBe('120');
    expect(await limitOf('GET', '/api/v1/invoices')).toBe('600');
    // Routes of later issues already have their rows: /invoices/invalidations is not counted as a consult.
    expect(await limitOf('GET', '/api/v1/invoices/invalidations')).toBe('300');
    expect(await limitOf('POST', '/api/v1/invoices/invalidations')).toBe('30');
    expect(await limitOf('GET', `/api/v1/invoices/${id}/submissions`)).toBe('300');
    expect(await limitOf('POST', '/api/v1/received-invoices/sync')).toBe('6');
  });
});

describe('SPEC.md "States and transitions": rejected or failed → reissue, once', () => {
  it('a rejected attempt is reissued once; the second reissue answers 409 naming its replacement; GET, list and submissions of the original point to it', async () => {
    const company = await p.createCompany();
    const invoiceId = invoiceIdOf(await rejectedNfe(p, company));
    const reissued = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey });
    expect(reissued.status).toBe(201);
    expect(reissued.body).toMatchObject({ status: 'issued', reissue_of: invoiceId, amount: 99.8 });
    const replacement = String(reissued.body['invoice_id']);

    for (let i = 0; i < 2; i++) {
      const again = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey });
      expect(again.status).toBe(409);
      expect(again.body['detail']).toEqual({
        message: expect.stringContaining(replacement),
        invoice_id: invoiceId,
        replaced_by: replacement,
      });
    }
    expect(await p.prisma.invoice.count({ where: { companyId: company.id } })).toBe(2);

    const consulted = await call(p, 'GET', `/api/v1/invoices/${invoiceId}?document_type=nfe`, { key: company.homologationKey });
    expect(consulted.body['invoice']).toMatchObject({ status: 'rejected', replaced_by: replacement });
    const listed = await call(p, 'GET', '/api/v1/invoices?status=rejected', { key: company.homologationKey });
    expect((listed.body['data'] as Json[])[0]).toMatchObject({ invoice_id: invoiceId, replaced_by: replacement });
    const submissions = await call(p, 'GET', `/api/v1/invoices/${invoiceId}/submissions`, { key: company.homologationKey });
    expect(submissions.body).toMatchObject({ invoice_id: invoiceId, reissue_of: null, replaced_by: replacement });
    const replacementSubmissions = await call(p, 'GET', `/api/v1/invoices/${replacement}/submissions`, { key: company.homologationKey });
    expect(replacementSubmissions.body).toMatchObject({ invoice_id: replacement, reissue_of: invoiceId, replaced_by: null });
  });

  it('concurrent reissues of one rejected attempt over HTTP: one document at the authorizer, the others 409 naming it', async () => {
    const company = await p.createCompany();
    const invoiceId = invoiceIdOf(await rejectedNfe(p, company));
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey })),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    const replacement = created[0]!.body['invoice_id'];
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body['detail']).toMatchObject({ replaced_by: replacement });
    }
    const authorized = await p.prisma.invoice.findMany({ where: { companyId: company.id, status: 'issued' } });
    expect(authorized.map((i) => i.id)).toEqual([replacement]);
  });

  it('the same Idempotency-Key answers the first reissue again (SPEC rule 2), not the 409', async () => {
    const company = await p.createCompany();
    const invoiceId = invoiceIdOf(await rejectedNfe(p, company));
    const headers = { 'idempotency-key': `reissue-${invoiceId}` };
    const first = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey, headers });
    expect(first.status).toBe(201);
    const replay = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(amountTokens(replay)).toEqual(['99.80']);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, {
      key: company.homologationKey,
      headers: { 'idempotency-key': 'another' },
    });
    expect(other.status).toBe(409);
  });

  it('a failed attempt (authorizer unavailable through every retry) answers 503 with status failed, and is reissued', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/*', { outage: true });
    const failed = await issue(p, company, sampleNfeRequest());
    expect(failed.status).toBe(503);
    expect(failed.body['detail']).toMatchObject({ invoice_id: expect.any(String), status: 'failed', message: expect.any(String) });
    await p.sim.control('DELETE', '/_control/faults');
    const invoiceId = String((failed.body['detail'] as Json)['invoice_id']);
    const reissued = await call(p, 'POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey });
    expect(reissued.status).toBe(201);
    expect(reissued.body).toMatchObject({ reissue_of: invoiceId, status: 'issued' });
    const consulted = await call(p, 'GET', `/api/v1/invoices/${invoiceId}?document_type=nfe`, { key: company.homologationKey });
    expect(consulted.body['invoice']).toMatchObject({ status: 'failed', protocol: null, replaced_by: reissued.body['invoice_id'] });
  });
});
