// Number reservation and the invoice's final transition against the run's real PostgreSQL (DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '../prisma-client.js';
import { invoiceEvent, nfeDraft } from '../testing/issuance-fixtures.js';
import { useScratchCompany } from '../testing/test-database.js';
import { createSqlPool, NUMBERING_POOL_OPTIONS, pgPoolSqlRunner } from './sql-runner.js';
import { AlreadyReissuedError, InvoicesRepository, NumberTakenError } from './invoices-repository.js';

const prisma = createPrismaClient(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const invoices = new InvoicesRepository(prisma);
const scratchCompany = useScratchCompany(prisma, 'Numeracao Ltda');

afterAll(async () => {
  await prisma.$disconnect();
});

const draft = (series: number, number?: number) =>
  nfeDraft(scratchCompany(), series, { totalAmount: '10.00', ...(number !== undefined ? { number } : {}) });

describe('InvoicesRepository', () => {
  it('gives concurrent reservations distinct consecutive numbers', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, () => invoices.createProcessing(draft(7))));
    expect(created.map((i) => i.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(created.every((i) => i.status === 'processing')).toBe(true);
  });

  it('returns the created row exactly as a read does (types included: Date, number, decimal string, JSON)', async () => {
    const created = await invoices.createProcessing({
      ...draft(13),
      request: { test: true, nested: { amount: '1.50' } },
      totalAmount: '1234.5',
    });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.updatedAt).toBeInstanceOf(Date);
    expect(created.number).toBe(1);
    expect(created.totalAmount).toBe('1234.5');
    expect(created).toEqual(await invoices.findById(created.id));
    expect(created).toEqual(await invoices.findById(created.id, prisma)); // Prisma's own mapping
    const pool = createSqlPool(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', 2);
    try {
      const pooled = new InvoicesRepository(prisma, pgPoolSqlRunner(pool));
      expect(await pooled.findById(created.id)).toEqual(created);
      const next = await pooled.createProcessing({
        ...draft(13),
        request: { test: true, nested: { amount: '1.50' } },
        totalAmount: '1234.5',
      });
      expect(next.number).toBe(2);
      expect(next).toEqual(await invoices.findById(next.id, prisma));
    } finally {
      await pool.end();
    }
  });

  it('reserves on an asynchronously committing pool with the same guarantees (distinct, consecutive, no reuse)', async () => {
    const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    const [sqlPool, numberingPool] = [createSqlPool(url, 4), createSqlPool(url, 2, NUMBERING_POOL_OPTIONS)];
    try {
      expect((await numberingPool.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }]);
      expect((await sqlPool.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'on' }]);
      const pooled = new InvoicesRepository(prisma, pgPoolSqlRunner(sqlPool), pgPoolSqlRunner(numberingPool));
      const created = await Promise.all(Array.from({ length: 12 }, () => pooled.createProcessing(draft(15))));
      expect(created.map((i) => i.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      // A failed insert gives its number back through the same pool.
      await expect(pooled.createProcessing({ ...draft(15), totalAmount: 'not-a-number' })).rejects.toThrow();
      expect((await pooled.createProcessing(draft(15))).number).toBe(13);
    } finally {
      await Promise.all([sqlPool.end(), numberingPool.end()]);
    }
  });

  it('gives a number back when its insert fails and no later number was reserved', async () => {
    const first = await invoices.createProcessing(draft(14));
    // The reservation succeeds, the insert fails (the amount is no number).
    await expect(invoices.createProcessing({ ...draft(14), totalAmount: 'not-a-number' })).rejects.toThrow();
    expect((await invoices.createProcessing(draft(14))).number).toBe(first.number + 1);
  });

  it('refuses a number already used, and the automatic path skips numbers chosen ahead of the sequence', async () => {
    await invoices.createProcessing(draft(8, 2));
    await expect(invoices.createProcessing(draft(8, 2))).rejects.toBeInstanceOf(NumberTakenError);
    const first = await invoices.createProcessing(draft(8));
    const second = await invoices.createProcessing(draft(8));
    expect([first.number, second.number]).toEqual([1, 3]);
  });

  it('an id already taken fails at once instead of skipping numbers', async () => {
    const id = randomUUID();
    const first = await invoices.createProcessing({ ...draft(12), id });
    await expect(invoices.createProcessing({ ...draft(12), id })).rejects.toThrow(`invoice ${id} already exists`);
    expect((await invoices.createProcessing(draft(12))).number).toBe(first.number + 1);
  });

  it('two requests naming the same free number at once: one wins, the other conflicts', async () => {
    const results = await Promise.allSettled([invoices.createProcessing(draft(9, 50)), invoices.createProcessing(draft(9, 50))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toBeInstanceOf(NumberTakenError);
  });

  it('reissues an attempt once: of two concurrent reissues one is inserted, the other names it; its number goes back', async () => {
    const original = await invoices.createProcessing(draft(16));
    const results = await Promise.allSettled([
      invoices.createProcessing({ ...draft(16), reissueOfId: original.id }),
      invoices.createProcessing({ ...draft(16), reissueOfId: original.id }),
    ]);
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(created).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toBeInstanceOf(AlreadyReissuedError);
    expect(failed.reason).toMatchObject({ invoiceId: original.id, replacementId: created[0]!.id });
    expect(await prisma.invoice.count({ where: { reissueOfId: original.id } })).toBe(1);
    expect(await invoices.findReplacement(original.id)).toBe(created[0]!.id);
    expect(await invoices.findReplacement(created[0]!.id)).toBeNull();
    expect(await invoices.findReplacements([original.id, created[0]!.id])).toEqual(new Map([[original.id, created[0]!.id]]));
    // A later reissue of the same attempt, after the race, is refused the same way.
    await expect(invoices.createProcessing({ ...draft(16), reissueOfId: original.id })).rejects.toBeInstanceOf(AlreadyReissuedError);
    // The loser's reservation was the last of the series, so it was given back: no gap after the winner's number.
    expect((await invoices.createProcessing(draft(16))).number).toBe(created[0]!.number + 1);
  });

  it('finishes an invoice once, with its credit: a second finisher finds it decided and charges nothing', async () => {
    const invoice = await invoices.createProcessing({ ...draft(10), id: randomUUID(), describe: () => ({ accessKey: 'K'.repeat(44) }) });
    expect(invoice.accessKey).toBe('K'.repeat(44));
    const event = (type: string) => invoiceEvent(scratchCompany(), invoice.id, type);
    const charge = (unitPrice?: string) => ({
      charge: { documentType: 'nfe' as const, period: '2026-11', ...(unitPrice ? { unitPrice } : {}) },
    });
    const [a, b] = await Promise.all([
      invoices.finishWithEvent(invoice.id, { status: 'issued', protocol: '1' }, event('invoice.authorized'), charge('1.5000')),
      invoices.finishWithEvent(invoice.id, { status: 'issued', protocol: '2' }, event('invoice.authorized'), charge()),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const credits = await prisma.usageEntry.findMany({ where: { invoiceId: invoice.id } });
    expect(credits.map((c) => [c.companyId, c.environment, c.documentType, c.period, c.credits, c.unitPrice?.toString() ?? null])).toEqual([
      [scratchCompany(), 'homologation', 'nfe', '2026-11', 1, a ? '1.5' : null],
    ]);
    expect(await prisma.outboxEvent.count({ where: { aggregateId: invoice.id } })).toBe(1);
    expect((await invoices.findById(invoice.id))?.protocol).toBe(a ? '1' : '2');
    const stuck = await invoices.findStuckProcessing(new Date(Date.now() + 60_000), 1000);
    expect(stuck.some((s) => s.id === invoice.id)).toBe(false);
  });

  it('enters contingency once: the new key and its event in one statement, only while processing', async () => {
    const invoice = await invoices.createProcessing({ ...draft(12), id: randomUUID(), describe: () => ({ accessKey: '1'.repeat(44) }) });
    const event = {
      companyId: scratchCompany(),
      environment: 'homologation' as const,
      type: 'invoice.contingency_entered',
      aggregateId: invoice.id,
      payload: { svc: 'SVC-AN' },
    };
    expect(await invoices.setContingencyIdentity(invoice.id, '6'.repeat(44), event)).toBe(true);
    expect(await invoices.findById(invoice.id)).toMatchObject({ status: 'processing', accessKey: '6'.repeat(44), contingency: true });
    await invoices.finishWithEvent(invoice.id, { status: 'failed' }, { ...event, type: 'invoice.failed', payload: {} });
    expect(await invoices.setContingencyIdentity(invoice.id, '7'.repeat(44), event)).toBe(false);
    expect((await invoices.findById(invoice.id))?.accessKey).toBe('6'.repeat(44));
    const events = await prisma.outboxEvent.findMany({ where: { aggregateId: invoice.id }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => [e.type, e.payload])).toEqual([
      ['invoice.contingency_entered', { svc: 'SVC-AN' }],
      ['invoice.failed', {}],
    ]);
  });

  it('finishWithEvent: state and event in one statement, once; undefined keeps a field, null clears it', async () => {
    const invoice = await invoices.createProcessing({ ...draft(11), id: randomUUID(), describe: () => ({ accessKey: 'A'.repeat(44) }) });
    const event = (type: string) => invoiceEvent(scratchCompany(), invoice.id, type, { nested: { n: 1 } });
    const issuedAt = new Date('2026-11-20T12:34:56.789Z');
    const [a, b] = await Promise.all([
      invoices.finishWithEvent(
        invoice.id,
        { status: 'issued', protocol: '135', statusCode: '100', statusMessage: null, issuedAt },
        event('invoice.authorized'),
      ),
      invoices.finishWithEvent(invoice.id, { status: 'rejected', statusCode: '999' }, event('invoice.rejected')),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const events = await prisma.outboxEvent.findMany({ where: { aggregateId: invoice.id } });
    expect(events).toHaveLength(1);
    const stored = await invoices.findById(invoice.id);
    expect(stored?.status).toBe(a ? 'issued' : 'rejected');
    expect(events[0]?.type).toBe(a ? 'invoice.authorized' : 'invoice.rejected');
    expect(events[0]?.payload).toEqual({ invoice_id: invoice.id, nested: { n: 1 } });
    expect(stored?.accessKey).toBe('A'.repeat(44));
    if (a) expect(stored).toMatchObject({ protocol: '135', statusCode: '100', statusMessage: null, issuedAt });
    expect(await invoices.finishWithEvent(invoice.id, { status: 'failed' }, event('invoice.failed'))).toBe(false);
    expect(await prisma.outboxEvent.count({ where: { aggregateId: invoice.id } })).toBe(1);
  });

  it("lists the company's invoices newest first with filters and pages, and finds one by key", async () => {
    const listed = await invoices.listForCompany({
      companyId: scratchCompany(),
      environment: 'homologation',
      documentType: 'nfe',
      statuses: ['processing'],
      page: 1,
      pageSize: 5,
    });
    expect(listed.total).toBeGreaterThan(5);
    expect(listed.data).toHaveLength(5);
    expect(listed.data.every((i) => i.status === 'processing')).toBe(true);
    const times = listed.data.map((i) => i.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const last = await invoices.listForCompany({
      companyId: scratchCompany(),
      environment: 'homologation',
      page: Math.ceil(listed.total / 5) + 1,
      pageSize: 5,
    });
    expect(last.data.length).toBeLessThanOrEqual(5);
    expect(await invoices.listForCompany({ companyId: scratchCompany(), environment: 'production', page: 1, pageSize: 5 })).toEqual({
      total: 0,
      data: [],
    });

    const found = await invoices.findByAccessKey(scratchCompany(), 'homologation', 'K'.repeat(44));
    expect(found?.accessKey).toBe('K'.repeat(44));
    expect(await invoices.findByAccessKey(scratchCompany(), 'production', 'K'.repeat(44))).toBeNull();
  });
});
