// NF-e issuance end to end: createInvoice → `issue` job → the issuer's worker → the simulator (real process, mTLS) →
// state, submissions with the exact bytes, usage ledger and outbox in PostgreSQL.
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { validateInvoiceRequest } from '@talao/fiscal-model';
import { createInvoice, issueInvoice, issuerProfileOf, OutcomeWaiter } from '@talao/issuance';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { useHarness } from './support/issuer-harness.js';

// Short retries for the outage cases: 3 tries, 100 ms doubling.
process.env.QUEUE_ISSUANCE_ATTEMPTS = '3';
process.env.QUEUE_ISSUANCE_BACKOFF_MS = '100';
jest.setTimeout(60_000);

const h = useHarness();

async function issue(companyId: string, environment: 'homologation' | 'production', body = sampleNfeRequest()) {
  const { invoice, enqueued } = await createInvoice(h().createDeps, { companyId, environment, body });
  expect(enqueued).toBe(true);
  return { created: invoice, final: await h().waitForFinal(invoice.id) };
}

const submissionsOf = (invoiceId: string) => h().prisma.submission.findMany({ where: { invoiceId }, orderBy: { attempt: 'asc' } });
const eventsOf = (invoiceId: string) =>
  h().prisma.outboxEvent.findMany({ where: { aggregateId: invoiceId }, orderBy: { createdAt: 'asc' } });
const creditsOf = (invoiceId: string) => h().prisma.usageEntry.count({ where: { invoiceId } });

describe('authorized NF-e', () => {
  it('homologation: issued with protocol and nfeProc, the exact bytes stored, an outbox event, no credit', async () => {
    const companyId = await h().createCompany();
    const { created, final } = await issue(companyId, 'homologation');
    const invoice = await h().prisma.invoice.findUniqueOrThrow({ where: { id: created.id } });
    expect(final.status).toBe('issued');
    expect(invoice.accessKey).toHaveLength(44);
    expect(invoice.accessKey).toBe(created.accessKey);
    expect(invoice.protocol).toMatch(/^[0-9]{15}$/);
    expect(invoice.statusCode).toBe('100');
    expect(invoice.authorizedXml).toContain('<nfeProc');
    expect(invoice.authorizedXml).toContain(`<chNFe>${invoice.accessKey}</chNFe>`);

    const [submission, ...others] = await submissionsOf(created.id);
    expect(others).toHaveLength(0);
    expect(submission).toMatchObject({ operation: 'NFeAutorizacao4', outcome: 'authorized', statusCode: '100', httpStatus: 200 });
    expect(submission!.requestBody).toContain(`<infNFe Id="NFe${invoice.accessKey}"`);
    expect(submission!.requestBody).toContain('<Signature');
    expect(submission!.responseBody).toContain('<protNFe');
    expect(submission!.endpoint).toContain('/SP/homologacao/');
    // The legal file embeds the signed NFe exactly as it was transmitted.
    const sentNfe = submission!.requestBody.slice(
      submission!.requestBody.indexOf('<NFe '),
      submission!.requestBody.lastIndexOf('</NFe>') + 6,
    );
    expect(invoice.authorizedXml).toContain(sentNfe);

    const events = await eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.authorized']);
    expect(events[0]!.payload).toMatchObject({
      invoice_id: created.id,
      document_type: 'nfe',
      access_key: invoice.accessKey,
      number: created.number,
      series: 1,
      status: 'issued',
      protocol: invoice.protocol,
      status_code: '100',
      environment: 'homologation',
    });
    expect(await creditsOf(created.id)).toBe(0);
  });

  it('production: one credit on authorization', async () => {
    const companyId = await h().createCompany();
    const { created, final } = await issue(companyId, 'production');
    expect(final.status).toBe('issued');
    expect(await creditsOf(created.id)).toBe(1);
    const entry = await h().prisma.usageEntry.findUniqueOrThrow({ where: { invoiceId: created.id } });
    expect(entry).toMatchObject({ environment: 'production', credits: 1, unitPrice: null });
    expect((await submissionsOf(created.id))[0]!.endpoint).toContain('/SP/producao/');
  });
});

describe('rejection', () => {
  it("rejected with the authorizer's code and message; the number stays a gap, the next invoice takes the next one", async () => {
    const companyId = await h().createCompany();
    await h().sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
    const { created, final } = await issue(companyId, 'homologation');
    expect(final.status).toBe('rejected');
    const invoice = await h().prisma.invoice.findUniqueOrThrow({ where: { id: created.id } });
    expect(invoice.statusCode).toBe('778');
    expect(invoice.statusMessage).toBeTruthy();
    const [submission] = await submissionsOf(created.id);
    expect(submission).toMatchObject({ outcome: 'rejected', statusCode: '778', statusMessage: invoice.statusMessage });
    expect(submission!.requestBody).toContain('<NFe ');
    const events = await eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.rejected']);
    expect(events[0]!.payload).toMatchObject({ status: 'rejected', status_code: '778', status_message: invoice.statusMessage });

    const next = await issue(companyId, 'homologation');
    expect(next.final.status).toBe('issued');
    expect(next.created.number).toBe(created.number + 1);
  });
});

describe('a document the official schema refuses', () => {
  it('ends failed with the schema’s message at the first try, sending nothing (issue 15, defect 11)', async () => {
    // An invoice stored before validation bounded unit prices: vUnCom carries 11 integer digits, this one 13.
    const companyId = await h().createCompany();
    const company = await h().prisma.company.findUniqueOrThrow({ where: { id: companyId } });
    const validation = validateInvoiceRequest(sampleNfeRequest(), issuerProfileOf(company as never));
    if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
    const [item, ...rest] = validation.value.items;
    const poisoned = { ...validation.value, items: [{ ...item!, unitPrice: '9999999999999.9900000000' }, ...rest] };
    const invoice = await h().prisma.invoice.create({
      data: {
        id: randomUUID(),
        companyId,
        environment: 'homologation',
        documentType: 'nfe',
        series: 1,
        number: 900_000 + Math.floor(Math.random() * 99_999),
        request: JSON.parse(JSON.stringify({ body: sampleNfeRequest(), validated: poisoned })),
        totalAmount: '99.80',
      },
    });
    const result = await issueInvoice(h().issueDeps, invoice.id, { finalAttempt: false });
    expect(result).toMatchObject({ kind: 'final', status: 'failed' });
    const stored = await h().prisma.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(stored.status).toBe('failed');
    expect(stored.statusMessage).toMatch(/^The document failed the official schema \(nfe\): .*vUnCom/);
    expect(await submissionsOf(invoice.id)).toEqual([]);
    expect((await eventsOf(invoice.id)).map((e) => e.type)).toEqual(['invoice.failed']);
  });
});

describe('authorizer unavailable', () => {
  it('retries with backoff, then failed when every try was refused', async () => {
    const companyId = await h().createCompany();
    await h().sim.control('PUT', '/_control/faults/SP', { outage: true });
    const { created, final } = await issue(companyId, 'homologation');
    expect(final.status).toBe('failed');
    const submissions = await submissionsOf(created.id);
    expect(submissions).toHaveLength(3);
    expect(submissions.every((s) => s.outcome === 'unavailable' && s.httpStatus === 503)).toBe(true);
    const invoice = await h().prisma.invoice.findUniqueOrThrow({ where: { id: created.id } });
    expect(invoice.statusCode).toBeNull();
    expect(invoice.statusMessage).toMatch(/^Authorizer unavailable after every retry/);
    expect((await eventsOf(created.id)).map((e) => e.type)).toEqual(['invoice.failed']);
  });

  it('with contingency: true → issued through the state SVC (tpEmis 6 or 7, a new access key, the reason recorded)', async () => {
    const companyId = await h().createCompany();
    await h().sim.control('PUT', '/_control/faults/SP', { outage: true });
    const { created, final } = await issue(companyId, 'homologation', sampleNfeRequest({ contingency: true }));
    expect(final.status).toBe('issued');
    const invoice = await h().prisma.invoice.findUniqueOrThrow({ where: { id: created.id } });
    expect(invoice.contingency).toBe(true);
    expect(invoice.accessKey).not.toBe(created.accessKey);
    expect(['6', '7']).toContain(invoice.accessKey!.charAt(34));
    const submissions = await submissionsOf(created.id);
    expect(submissions.map((s) => s.outcome)).toEqual(['unavailable', 'authorized']);
    expect(submissions[1]!.endpoint).toMatch(/\/SVC-(AN|RS)\/homologacao\//);
    expect(submissions[1]!.requestBody).toContain('<dhCont>');
    expect(submissions[1]!.requestBody).toContain('<xJust>SEFAZ SP indisponivel');
    const events = await eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.contingency_entered', 'invoice.authorized']);
    expect(events[0]!.payload).toMatchObject({ previous_access_key: created.accessKey, access_key: invoice.accessKey });
  });
});

describe('waiting for the outcome (what the gateway does before answering 201/502/202)', () => {
  it('returns the final invoice inside the window, or the invoice still processing when the window closes first', async () => {
    const companyId = await h().createCompany();
    const waiter = new OutcomeWaiter(h().issueDeps.invoices, await h().jobOutcomes());

    const quick = await createInvoice(h().createDeps, { companyId, environment: 'homologation', body: sampleNfeRequest() });
    const decided = await waiter.waitForFinal(quick.invoice.id, 10_000);
    expect(decided?.status).toBe('issued');

    // The worker's outcome message carries what the job decided: a waiter holding the record it has just created
    // answers from the two without reading PostgreSQL (the fallback poll would read after 2 s).
    const reads: string[] = [];
    const countingReader = { findById: (id: string) => (reads.push(id), h().issueDeps.invoices.findById(id)) };
    const signalled = new OutcomeWaiter(countingReader, await h().jobOutcomes());
    const next = await createInvoice(h().createDeps, { companyId, environment: 'homologation', body: sampleNfeRequest() });
    const answered = await signalled.waitForFinal(next.invoice.id, 10_000, next.invoice);
    expect(reads).toEqual([]);
    const stored = await h().issueDeps.invoices.findById(next.invoice.id);
    expect(answered).toMatchObject({
      status: 'issued',
      accessKey: stored?.accessKey,
      protocol: stored?.protocol,
      issuedAt: stored?.issuedAt,
    });

    await h().sim.control('PUT', '/_control/faults/SP', { latencyMs: 1_500 });
    const slow = await createInvoice(h().createDeps, { companyId, environment: 'homologation', body: sampleNfeRequest() });
    const started = Date.now();
    const pending = await waiter.waitForFinal(slow.invoice.id, 300);
    expect(pending?.status).toBe('processing');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await h().waitForFinal(slow.invoice.id)).status).toBe('issued');
  });
});
