// POST /api/v1/invoices end to end: gateway, issuer and authorizer simulator as real processes, real PostgreSQL and
// Redis. Each case asserts what the integrator sees (HTTP) and what the platform recorded (database, simulator).
import { jest } from '@jest/globals';
import { sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { startPlatform } from './support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

// Short retries so the outage (contingency) case decides quickly.
const p = startedForFile('platform', () =>
  startPlatform('http', {
    issuerEnv: { QUEUE_ISSUANCE_ATTEMPTS: '3', QUEUE_ISSUANCE_BACKOFF_MS: '100' },
    gatewayEnv: { ISSUE_WAIT_MS: '4000' },
  }),
);

afterEach(async () => {
  await p.sim.control('DELETE', '/_control/faults');
});

const submissions = async (key: string, invoiceId: string) => {
  const { status, body } = await p.api('GET', `/api/v1/invoices/${invoiceId}/submissions`, { key });
  expect(status).toBe(200);
  return body.data as Array<Record<string, unknown>>;
};

describe('authorized', () => {
  it('NF-e: 201 with a 44-digit access key and protocol; listed; consulted at the authorizer; nothing charged in homologation', async () => {
    const company = await p.createCompany();
    const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      document_type: 'nfe',
      status: 'issued',
      environment: 'homologation',
      series: 1,
      number: 1,
      total_amount: '99.80',
    });
    expect(created.body.access_key).toMatch(/^[0-9]{44}$/);
    expect(created.body.protocol).toMatch(/^[0-9]{15}$/);
    expect(await p.prisma.usageEntry.count({ where: { companyId: company.id } })).toBe(0);

    const list = await p.api('GET', '/api/v1/invoices?document_type=nfe&status=issued', { key: company.homologationKey });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, total_pages: 1, page: 1, page_size: 20, next_page: null, prev_page: null });
    expect((list.body.data as unknown[])[0]).toMatchObject({ invoice_id: created.body.invoice_id, access_key: created.body.access_key });

    const consulted = await p.api('GET', `/api/v1/invoices/${String(created.body.access_key)}?document_type=nfe`, {
      key: company.homologationKey,
    });
    expect(consulted.status).toBe(200);
    expect(consulted.body.invoice).toMatchObject({ invoice_id: created.body.invoice_id, status: 'issued' });
    expect(consulted.body.authorizer).toMatchObject({ available: true, code: '100', protocol: created.body.protocol });

    const sent = await submissions(company.homologationKey, String(created.body.invoice_id));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ operation: 'NFeAutorizacao4', outcome: 'authorized', status_code: '100', http_status: 200 });
    // Byte for byte what was stored before sending.
    const stored = await p.prisma.submission.findFirstOrThrow({ where: { invoiceId: String(created.body.invoice_id) } });
    expect(sent[0]!.request_body).toBe(stored.requestBody);
    expect(sent[0]!.response_body).toBe(stored.responseBody);
  });

  it('NFS-e: 201 with a 50-digit key and protocol', async () => {
    const company = await p.createCompany();
    const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfseRequest() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ document_type: 'nfse', status: 'issued' });
    expect(created.body.access_key).toMatch(/^[0-9]{50}$/);
    expect(created.body.protocol).toBeTruthy();
    const consulted = await p.api('GET', `/api/v1/invoices/${String(created.body.access_key)}?document_type=nfse`, {
      key: company.homologationKey,
    });
    expect(consulted.status).toBe(200);
    expect(consulted.body.authorizer).toMatchObject({ available: true });
  });
});

describe('rejected and reissued', () => {
  it('502 with the authorizer’s message, code and invoice_id; submissions show the XML sent; reissue takes a new number', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
    const rejected = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    expect(rejected.status).toBe(502);
    const detail = rejected.body.detail as Record<string, unknown>;
    expect(detail.code).toBe('778');
    expect(String(detail.message)).toMatch(/NCM/i);
    const invoiceId = String(detail.invoice_id);
    const sent = await submissions(company.homologationKey, invoiceId);
    expect(sent[0]).toMatchObject({ outcome: 'rejected', status_code: '778', status_message: detail.message });
    expect(String(sent[0]!.request_body)).toContain('<NFe ');
    expect(String(sent[0]!.request_body)).toContain('<Signature');

    const issuedFirst = await p.api('POST', `/api/v1/invoices/${invoiceId}/reissue`, { key: company.homologationKey });
    expect(issuedFirst.status).toBe(201);
    expect(issuedFirst.body.number).toBe(2);
    expect(issuedFirst.body.invoice_id).not.toBe(invoiceId);
    // Only rejected or failed invoices can be reissued.
    const again = await p.api('POST', `/api/v1/invoices/${String(issuedFirst.body.invoice_id)}/reissue`, { key: company.homologationKey });
    expect(again.status).toBe(409);
    // Number 1 stays a gap.
    const list = await p.api('GET', '/api/v1/invoices?status=rejected', { key: company.homologationKey });
    expect((list.body.data as Array<Record<string, unknown>>).map((i) => i.number)).toEqual([1]);
  });
});

describe('idempotency', () => {
  it('replays the first response; 422 for another body; 422 for a key over 255 characters', async () => {
    const company = await p.createCompany();
    const headers = { 'idempotency-key': `order-${Date.now()}` };
    const first = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest(), headers });
    expect(first.status).toBe(201);
    const replay = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest(), headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(await p.prisma.invoice.count({ where: { companyId: company.id } })).toBe(1);
    const other = await p.api('POST', '/api/v1/invoices', {
      key: company.homologationKey,
      body: sampleNfeRequest({ additional_info: 'other' }),
      headers,
    });
    expect(other.status).toBe(422);
    const long = await p.api('POST', '/api/v1/invoices', {
      key: company.homologationKey,
      body: sampleNfeRequest(),
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(long.status).toBe(422);
    // Another company may use the same key: scoped to the company.
    const another = await p.createCompany();
    expect((await p.api('POST', '/api/v1/invoices', { key: another.homologationKey, body: sampleNfeRequest(), headers })).status).toBe(201);
  });

  it('two concurrent calls with one key: one issues, the other gets 409 while it runs; one document at the simulator', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/SP', { latencyMs: 800 });
    const headers = { 'idempotency-key': `concurrent-${Date.now()}` };
    const [a, b] = await Promise.all([
      p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest(), headers }),
      p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest(), headers }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const invoices = await p.prisma.invoice.findMany({ where: { companyId: company.id } });
    expect(invoices).toHaveLength(1);
    expect((await p.sim.control('GET', `/_control/documents/${invoices[0]!.accessKey}`)).status).toBe(200);
    const replay = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest(), headers });
    expect(replay.status).toBe(201);
  });
});

describe('refusals before issuing', () => {
  it('400 naming the certificate for a company without one; 422 with the first field error and all errors', async () => {
    const company = await p.createCompany({ certificate: false });
    const unconfigured = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.detail).toEqual(expect.stringContaining('certificate'));
    const invalid = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest({ items: [] }) });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toMatchObject({ code: expect.any(String), field: expect.any(String), message: expect.any(String) });
    expect(Array.isArray(invalid.body.errors)).toBe(true);
  });

  it('402 in production once an exhausted trial plan is used up; homologation stays free and unlimited', async () => {
    const company = await p.createCompany({ productionQuota: 1 });
    const first = await p.api('POST', '/api/v1/invoices', { key: company.productionKey, body: sampleNfeRequest() });
    expect(first.status).toBe(201);
    expect(await p.prisma.usageEntry.count({ where: { companyId: company.id } })).toBe(1);
    const second = await p.api('POST', '/api/v1/invoices', { key: company.productionKey, body: sampleNfeRequest() });
    expect(second.status).toBe(402);
    const homologation = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    expect(homologation.status).toBe(201);
    expect(await p.prisma.usageEntry.count({ where: { companyId: company.id } })).toBe(1);
  });

  it('409 for a number already used; 404 and no consult for another company’s key; 422 without document_type or with a bad page size', async () => {
    const company = await p.createCompany();
    const first = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest({ number: 7 }) });
    expect(first.status).toBe(201);
    expect((await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest({ number: 7 }) })).status).toBe(
      409,
    );
    const stranger = await p.createCompany();
    const key = String(first.body.access_key);
    expect((await p.api('GET', `/api/v1/invoices/${key}?document_type=nfe`, { key: stranger.homologationKey })).status).toBe(404);
    expect(
      (await p.api('GET', `/api/v1/invoices/${String(first.body.invoice_id)}/submissions`, { key: stranger.homologationKey })).status,
    ).toBe(404);
    expect((await p.api('GET', `/api/v1/invoices/${key}`, { key: company.homologationKey })).status).toBe(422);
    expect((await p.api('GET', '/api/v1/invoices?page_size=101', { key: company.homologationKey })).status).toBe(422);
  });
});

describe('authorizer trouble', () => {
  it('state authorizer down, contingency: true → authorized through SVC', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/SP', { outage: true });
    const created = await p.api('POST', '/api/v1/invoices', {
      key: company.homologationKey,
      body: sampleNfeRequest({ contingency: true }),
    });
    expect(created.status).toBe(201);
    expect(created.body.contingency).toBe(true);
    expect(['6', '7']).toContain(String(created.body.access_key).charAt(34));
    const sent = await submissions(company.homologationKey, String(created.body.invoice_id));
    expect(String(sent.at(-1)!.endpoint)).toMatch(/\/SVC-(AN|RS)\//);
  });

  it('GET with the authorizer down answers the stored record with the authorizer marked unavailable', async () => {
    const company = await p.createCompany();
    const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    await p.sim.control('PUT', '/_control/faults/*', { outage: true });
    const consulted = await p.api('GET', `/api/v1/invoices/${String(created.body.access_key)}?document_type=nfe`, {
      key: company.homologationKey,
    });
    expect(consulted.status).toBe(200);
    expect(consulted.body.invoice).toMatchObject({ status: 'issued' });
    expect(consulted.body.authorizer).toMatchObject({ available: false });
  });

  it('202 with Location when the outcome is not known within the wait window', async () => {
    const company = await p.createCompany();
    await p.sim.control('PUT', '/_control/faults/SP', { latencyMs: 5_000 });
    const pending = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: 'processing' });
    expect(pending.headers.get('location')).toBe(`/api/v1/invoices/${String(pending.body.invoice_id)}?document_type=nfe`);
  });
});
