// POST and GET /api/v1/invoices/invalidations end to end (gateway, issuer, canceller, simulator as real processes):
// the service's own records refuse numbers that reached the authorizer before SEFAZ is contacted, numbers ahead of
// the sequence are never issued once invalidated, and a lost answer is settled by sending the same bytes again.
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { type Platform, startPlatform, type TestCompany } from '../issuance/support/platform.js';

jest.setTimeout(120_000);

let p: Platform;
let company: TestCompany;
const REASON = 'Numeracao pulada por falha no sistema de faturamento';

beforeAll(async () => {
  p = await startPlatform('invalidations', {
    canceller: true,
    // Short retries (job options are the producer's, the gateway's), so an attempt whose authorizer stays down is
    // `failed` quickly.
    gatewayEnv: {
      AMENDMENT_WAIT_MS: '8000',
      ISSUE_WAIT_MS: '8000',
      QUEUE_ISSUANCE_ATTEMPTS: '2',
      QUEUE_ISSUANCE_BACKOFF_MS: '100',
      QUEUE_AMENDMENTS_ATTEMPTS: '3',
      QUEUE_AMENDMENTS_BACKOFF_MS: '100',
    },
  });
  company = await p.createCompany();
});

afterAll(async () => {
  await p?.stop();
});

afterEach(async () => {
  await p.sim.control('DELETE', '/_control/faults');
});

const invalidate = (body: Record<string, unknown>) =>
  p.api('POST', '/api/v1/invoices/invalidations', { key: company.homologationKey, body: { series: 1, reason: REASON, ...body } });

async function issue(): Promise<{ status: number; invoiceId: string; number: number }> {
  const created = await p.api('POST', '/api/v1/invoices', { key: company.homologationKey, body: sampleNfeRequest() });
  const detail = created.body.detail as Record<string, unknown> | undefined;
  return { status: created.status, invoiceId: String(created.body.invoice_id ?? detail?.invoice_id), number: Number(created.body.number) };
}

describe('numbering invalidation', () => {
  it('numbers that reached the authorizer → 409 naming them and their invoices, without contacting SEFAZ', async () => {
    const issued = await issue();
    expect(issued.status).toBe(201);
    await p.sim.control('PUT', '/_control/faults/*', { forceRejection: { code: '778', count: 1 } });
    const rejected = await issue();
    expect(rejected.status).toBe(502);
    const answer = await invalidate({ number_start: 1, number_end: 2 });
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toMatchObject({
      code: 'NUMBERS_AT_AUTHORIZER',
      numbers: [
        { number: 1, invoice_id: issued.invoiceId, status: 'issued' },
        { number: 2, invoice_id: rejected.invoiceId, status: 'rejected' },
      ],
    });
    expect(await p.prisma.invalidation.count({ where: { companyId: company.id } })).toBe(0);
    expect(await p.prisma.invalidationSubmission.count({ where: { invalidation: { companyId: company.id } } })).toBe(0);
  });

  it('numbers ahead of the sequence: 201 with the protocol, the signed inutNFe stored; the sequence never issues them', async () => {
    const answer = await invalidate({ number_start: 3, number_end: 5 });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ series: 1, number_start: 3, number_end: 5, status: 'registered', status_code: '102' });
    expect(answer.body.protocol).toMatch(/^[0-9]{15}$/);
    const sent = await p.prisma.invalidationSubmission.findMany({ where: { invalidationId: String(answer.body.invalidation_id) } });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ operation: 'NFeInutilizacao4', outcome: 'accepted', statusCode: '102' });
    expect(sent[0]!.requestBody).toContain('<nNFIni>3</nNFIni><nNFFin>5</nNFFin>');
    expect(sent[0]!.requestBody).toContain('<Signature');

    const next = await issue();
    expect(next.status).toBe(201);
    expect(next.number).toBe(6);
    // Nor may a request name one of them.
    const named = await p.api('POST', '/api/v1/invoices', {
      key: company.homologationKey,
      body: sampleNfeRequest({ series: '1', number: '4' }),
    });
    expect(named.status).toBe(409);
    expect(named.body.detail).toMatch(/Number 4 of series 1 was invalidated/);

    const overlap = await invalidate({ number_start: 5, number_end: 5 });
    expect(overlap.status).toBe(409);
    expect(overlap.body.detail).toMatchObject({ code: 'ALREADY_INVALIDATED' });
    const gap = await invalidate({ number_start: 9, number_end: 10 });
    expect(gap.status).toBe(422);
    expect(gap.body.detail).toMatchObject({ code: 'RANGE_AHEAD_OF_SEQUENCE' });
    expect((await invalidate({ number_start: 7, number_end: 7, document_type: 'nfse' })).status).toBe(409);
    expect((await invalidate({ number_start: 7, number_end: 7, reason: 'curto' })).status).toBe(422);
  });

  it('a lost answer: the same bytes again, SEFAZ answers 563 for its own range → registered once', async () => {
    await p.sim.control('PUT', '/_control/faults/*', { dropResponses: 1 });
    const answer = await invalidate({ number_start: 7, number_end: 8 });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'registered' });
    const sent = await p.prisma.invalidationSubmission.findMany({
      where: { invalidationId: String(answer.body.invalidation_id) },
      orderBy: { attempt: 'asc' },
    });
    expect(sent.map((s) => [s.outcome, s.statusCode])).toEqual([
      ['unknown', null],
      ['rejected', '563'],
    ]);
    expect(sent[1]!.requestBody).toBe(sent[0]!.requestBody);
  });

  it('GET /invoices/invalidations lists the ranges, paged (no longer taken for an access key)', async () => {
    const listed = await p.api('GET', '/api/v1/invoices/invalidations?page_size=1', { key: company.homologationKey });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 2, total_pages: 2, page: 1, page_size: 1, next_page: 2, prev_page: null });
    expect((listed.body.data as Array<Record<string, unknown>>)[0]).toMatchObject({ number_start: 7, number_end: 8 });
    expect((await p.api('GET', '/api/v1/invoices/invalidations?status=x', { key: company.homologationKey })).status).toBe(422);
  });

  it('a failed attempt’s number (nothing reached SEFAZ) may be invalidated; its submissions show the invalidation as transmitted', async () => {
    await p.sim.control('PUT', '/_control/faults/*', { outage: true });
    const failed = await issue();
    expect([202, 503]).toContain(failed.status);
    // The issuer gives up after its tries: the attempt is `failed`, its number a gap.
    let invoice = await p.prisma.invoice.findUniqueOrThrow({ where: { id: failed.invoiceId } });
    for (let waited = 0; invoice.status !== 'failed' && waited < 60_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      invoice = await p.prisma.invoice.findUniqueOrThrow({ where: { id: failed.invoiceId } });
    }
    expect(invoice.status).toBe('failed');
    await p.sim.control('DELETE', '/_control/faults');
    const number = invoice.number;
    const answer = await invalidate({ number_start: Number(number), number_end: Number(number) });
    expect(answer.status).toBe(201);
    const { status, body } = await p.api('GET', `/api/v1/invoices/${failed.invoiceId}/submissions`, { key: company.homologationKey });
    expect(status).toBe(200);
    const ranges = body.invalidations as Array<{ invalidation_id: string; data: Array<Record<string, unknown>> }>;
    expect(ranges).toHaveLength(1);
    expect(ranges[0]!.invalidation_id).toBe(answer.body.invalidation_id);
    expect(ranges[0]!.data[0]).toMatchObject({ operation: 'NFeInutilizacao4', outcome: 'accepted', status_code: '102' });
    expect(String(ranges[0]!.data[0]!.request_body)).toContain('<inutNFe');
  });
});
