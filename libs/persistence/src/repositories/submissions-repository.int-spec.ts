// Submissions against the run's real PostgreSQL (DATABASE_URL): attempt numbers per invoice, the exact bytes kept.
import { createPrismaClient } from '../prisma-client.js';
import { invoiceEvent, nfeDraft } from '../testing/issuance-fixtures.js';
import { useScratchCompany } from '../testing/test-database.js';
import { InvoicesRepository } from './invoices-repository.js';
import { SubmissionsRepository } from './submissions-repository.js';

const prisma = createPrismaClient(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const invoices = new InvoicesRepository(prisma);
const submissions = new SubmissionsRepository(prisma);
const scratchCompany = useScratchCompany(prisma, 'Submissoes Ltda');

afterAll(async () => {
  await prisma.$disconnect();
});

const newInvoice = (series: number) => invoices.createProcessing(nfeDraft(scratchCompany(), series));

describe('SubmissionsRepository', () => {
  it('numbers attempts 1, 2, … per invoice and keeps the request and response byte for byte', async () => {
    const [a, b] = [await newInvoice(21), await newInvoice(21)];
    const body = '<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope">ç & <x/>\n</soap:Envelope>';
    const first = await submissions.begin({
      invoiceId: a.id,
      companyId: scratchCompany(),
      operation: 'NFeAutorizacao4',
      endpoint: 'https://sim/a',
      requestBody: body,
    });
    const other = await submissions.begin({
      invoiceId: b.id,
      companyId: scratchCompany(),
      operation: 'NFeAutorizacao4',
      endpoint: 'https://sim/a',
      requestBody: 'x',
    });
    await submissions.answer(first.id, {
      responseBody: '<ret/>',
      httpStatus: 200,
      outcome: 'unknown',
      statusCode: null,
      statusMessage: 'reset',
    });
    const second = await submissions.begin({
      invoiceId: a.id,
      companyId: scratchCompany(),
      operation: 'NFeConsultaProtocolo4',
      endpoint: 'https://sim/c',
      requestBody: 'y',
    });
    expect([first.attempt, second.attempt, other.attempt]).toEqual([1, 2, 1]);
    expect(first).toMatchObject({ invoiceId: a.id, requestBody: body, outcome: null, responseBody: null, answeredAt: null });
    const listed = await submissions.listByInvoice(a.id);
    expect(listed.map((s) => [s.id, s.attempt, s.operation])).toEqual([
      [first.id, 1, 'NFeAutorizacao4'],
      [second.id, 2, 'NFeConsultaProtocolo4'],
    ]);
    expect(listed[0]).toMatchObject({
      requestBody: body,
      responseBody: '<ret/>',
      httpStatus: 200,
      outcome: 'unknown',
      statusMessage: 'reset',
      sentAt: first.sentAt,
    });
    expect(listed[0]?.answeredAt).toBeInstanceOf(Date);
    expect(listed[1]).toEqual({ ...second, answeredAt: null });
    expect(await submissions.listByInvoice('not-a-uuid')).toEqual([]);
  });

  it('two workers beginning an attempt of the same invoice at once: never two rows with one number', async () => {
    const invoice = await newInvoice(22);
    const begin = () =>
      submissions.begin({
        invoiceId: invoice.id,
        companyId: scratchCompany(),
        operation: 'NFeAutorizacao4',
        endpoint: 'https://sim/a',
        requestBody: 'z',
      });
    const results = await Promise.allSettled(Array.from({ length: 6 }, begin));
    const attempts = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.attempt] : []));
    expect(new Set(attempts).size).toBe(attempts.length);
    expect((await submissions.listByInvoice(invoice.id)).map((s) => s.attempt)).toEqual([...attempts].sort((x, y) => x - y));
  });

  it('the deciding answer rides with the final state and the event (one statement); the answer kept even when already final', async () => {
    const invoice = await newInvoice(23);
    const event = (type: string) => invoiceEvent(scratchCompany(), invoice.id, type);
    const first = await submissions.begin({
      invoiceId: invoice.id,
      companyId: scratchCompany(),
      operation: 'NFeAutorizacao4',
      endpoint: 'https://sim/a',
      requestBody: 'a',
    });
    const answer = {
      responseBody: '<retEnviNFe/>',
      httpStatus: 200,
      outcome: 'authorized',
      statusCode: '100',
      statusMessage: 'Autorizado',
    };
    expect(
      await invoices.finishWithEvent(invoice.id, { status: 'issued', protocol: '1', statusCode: '100' }, event('invoice.authorized'), {
        answered: { submissionId: first.id, answer },
      }),
    ).toBe(true);

    const second = await submissions.begin({
      invoiceId: invoice.id,
      companyId: scratchCompany(),
      operation: 'NFeConsultaProtocolo4',
      endpoint: 'https://sim/c',
      requestBody: 'c',
    });
    const late = {
      responseBody: '<retConsSitNFe/>',
      httpStatus: 200,
      outcome: 'authorized',
      statusCode: '100',
      statusMessage: 'Autorizado',
    };
    expect(
      await invoices.finishWithEvent(invoice.id, { status: 'rejected' }, event('invoice.rejected'), {
        answered: { submissionId: second.id, answer: late },
      }),
    ).toBe(false);

    expect((await invoices.findById(invoice.id))?.status).toBe('issued');
    const listed = await submissions.listByInvoice(invoice.id);
    expect(listed.map((s) => [s.responseBody, s.outcome, s.statusCode])).toEqual([
      ['<retEnviNFe/>', 'authorized', '100'],
      ['<retConsSitNFe/>', 'authorized', '100'],
    ]);
    expect(listed.every((s) => s.answeredAt instanceof Date)).toBe(true);
    const events = await prisma.outboxEvent.findMany({ where: { aggregateId: invoice.id } });
    expect(events.map((e) => e.type)).toEqual(['invoice.authorized']);

    await expect(
      invoices.finishWithEvent(invoice.id, { status: 'failed' }, event('invoice.failed'), {
        answered: { submissionId: '5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10', answer },
      }),
    ).rejects.toThrow(/not found/);
  });
});
