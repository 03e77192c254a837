// POST and GET /api/v1/invoices/invalidations end to end (gateway, issuer, canceller, simulator as real processes):
// the service's own records refuse numbers that reached the authorizer before SEFAZ is contacted, numbers ahead of
// the sequence are never issued once invalidated, and a lost answer is settled by sending the same bytes again.
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { InvoicesRepository, NumberSequencesRepository, type Prisma, SubmissionsRepository } from '@talao/persistence';
import { enqueueJob, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(120_000);

const p = startedForFile('platform', () =>
  startPlatform('invalidations', {
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
  }),
);
let company: TestCompany;
const REASON = 'Numeracao pulada por falha no sistema de faturamento';

beforeAll(async () => {
  company = await p.createCompany();
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
    expect((await invalidate({ number_start: 7, number_end: 7, reason: 'Numeracao pulada 🙁 no faturamento' })).body.detail).toMatchObject({
      code: 'FIELD_CHARACTERS_UNSUPPORTED',
      field: 'reason',
    });
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
    // The range as POST answered it (and GET /invoices/invalidations lists it), with its exchanges.
    const { data, ...range } = ranges[0]!;
    expect(range).toEqual(answer.body);
    expect(data[0]).toMatchObject({ operation: 'NFeInutilizacao4', outcome: 'accepted', status_code: '102' });
    expect(String(data[0]!.request_body)).toContain('<inutNFe');
  });
});

// A number reserved before a range is filed and inserted after it: the filing's look at the invoices cannot see it
// (the reservation commits on its own). The issue job reads the invalidations after the insert, the invalidate job
// reads the invoices after the filing; these two tests put the database in each order's state.
describe('a number reserved before a filing and inserted after it', () => {
  let racer: TestCompany;
  let queueRedis: Redis;
  let issuance: Queue;
  const key = (id: string) => ({ companyId: id, environment: 'homologation' as const, documentType: 'nfe' as const, series: 1 });
  const invoices = () => new InvoicesRepository(p.prisma);

  beforeAll(async () => {
    racer = await p.createCompany();
    queueRedis = new Redis(p.redis.url, { maxRetriesPerRequest: null });
    issuance = new Queue(QUEUE_NAMES.issuance, { connection: queueRedis, prefix: queueKeyPrefix(p.redis.prefix) });
  });

  afterAll(async () => {
    await issuance?.close();
    queueRedis?.disconnect();
  });

  const invalidateRacer = (number: number, idempotencyKey: string) =>
    p.api('POST', '/api/v1/invoices/invalidations', {
      key: racer.homologationKey,
      headers: { 'idempotency-key': idempotencyKey },
      body: { series: 1, number_start: number, number_end: number, reason: REASON },
    });

  async function insertReserved(number: number) {
    return invoices().createProcessing({
      ...key(racer.id),
      number,
      request: sampleNfeRequest() as Prisma.InputJsonValue,
      totalAmount: '10.00',
    });
  }

  it('the issue job never sends a number invalidated meanwhile: the invoice ends failed, nothing reaches SEFAZ', async () => {
    const number = await new NumberSequencesRepository().reserveNext(p.prisma, key(racer.id));
    const filed = await invalidateRacer(number, `race-issuer-${number}`);
    expect(filed.status).toBe(201);
    const invoice = await insertReserved(number);
    await enqueueJob({ issuance }, { name: 'issue', data: { invoiceId: invoice.id } });
    let stored = await p.prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    for (let waited = 0; stored.status === 'processing' && waited < 30_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      stored = await p.prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    }
    expect(stored.status).toBe('failed');
    expect(stored.statusMessage).toBe(
      `Number ${number} of series 1 was invalidated (invalidation ${String(filed.body.invalidation_id)}) before the document was sent`,
    );
    expect(stored.invalidatedById).toBe(filed.body.invalidation_id);
    expect(await p.prisma.submission.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it('the invalidate job refuses a range whose number an issuance sent meanwhile: 409, nothing reaches SEFAZ', async () => {
    const number = await new NumberSequencesRepository().reserveNext(p.prisma, key(racer.id));
    const canceller = p.canceller()!;
    canceller.child.kill('SIGSTOP');
    let answer: Awaited<ReturnType<typeof invalidateRacer>>;
    try {
      // Filed while the canceller is paused, so its job waits; the gateway waits for the decision meanwhile.
      const answered = invalidateRacer(number, `race-canceller-${number}`);
      const filed = async () => p.prisma.invalidation.findFirst({ where: { companyId: racer.id, numberStart: number } });
      for (let waited = 0; !(await filed()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      // Then the reserved number's NF-e is inserted and its issue job sends it (the submission stored before sending).
      const invoice = await insertReserved(number);
      await new SubmissionsRepository(p.prisma).begin({
        invoiceId: invoice.id,
        companyId: racer.id,
        operation: 'NFeAutorizacao4',
        endpoint: 'https://sefaz.example/NFeAutorizacao4',
        requestBody: '<enviNFe/>',
      });
      canceller.child.kill('SIGCONT');
      answer = await answered;
    } finally {
      canceller.child.kill('SIGCONT');
    }
    expect(answer.status).toBe(409);
    const detail = answer.body.detail as Record<string, unknown>;
    expect(detail).toMatchObject({ code: 'NUMBERS_AT_AUTHORIZER' });
    expect(String(detail.message)).toContain(`${number} (invoice `);
    // Filed, then refused by the job (a refusal at filing stores no range).
    const range = await p.prisma.invalidation.findUniqueOrThrow({ where: { id: String(detail.invalidation_id) } });
    expect(range).toMatchObject({ status: 'rejected', statusCode: null, refusedFor: 'numbers_in_use' });
    expect(await p.prisma.invalidationSubmission.count({ where: { invalidationId: range.id } })).toBe(0);
  });
});
