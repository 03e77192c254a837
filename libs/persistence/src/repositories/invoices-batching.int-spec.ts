// createProcessing with batching on (the gateway's wiring): reservations and inserts of concurrent calls share
// multi-row statements, against the run's real PostgreSQL (DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '../prisma-client.js';
import { coalescingSqlRunner, createSqlPool, NUMBERING_POOL_OPTIONS, pgPoolSqlRunner } from './sql-runner.js';
import { AlreadyReissuedError, InvoicesRepository, NumberTakenError } from './invoices-repository.js';
import { releaseNumber, reserveNumber, reserveNumbers, type SequenceKey } from './number-sequences-repository.js';
import { insertProcessingInvoices } from './invoice-insert.js';
import { countingSqlRunner } from '../testing/counting-sql-runner.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const prisma = createPrismaClient(url);
const sqlPool = createSqlPool(url, 4);
const numberingPool = createSqlPool(url, 2, NUMBERING_POOL_OPTIONS);
const companyIds: string[] = [];

function batchedRepository() {
  const sql = countingSqlRunner(pgPoolSqlRunner(sqlPool));
  const numbering = countingSqlRunner(pgPoolSqlRunner(numberingPool));
  const batching = { maxBatch: 32, maxInFlight: 2 };
  const repository = new InvoicesRepository(
    prisma,
    coalescingSqlRunner(sql.runner, batching),
    coalescingSqlRunner(numbering.runner, batching),
  );
  return { repository, sql, numbering };
}

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const taxId = String(Date.now() + i)
      .padStart(14, '6')
      .slice(-14);
    const company = await prisma.company.create({
      data: { taxId, legalName: `Lote ${i} Ltda`, cityCode: '3550308', cityName: 'Sao Paulo', state: 'SP' },
    });
    companyIds.push(company.id);
  }
});

afterAll(async () => {
  await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
  await Promise.all([prisma.$disconnect(), sqlPool.end(), numberingPool.end()]);
});

const draft = (
  series: number,
  extra: { number?: number; companyId?: string; id?: string; totalAmount?: string; reissueOfId?: string } = {},
) => ({
  companyId: extra.companyId ?? companyIds[0]!,
  environment: 'homologation' as const,
  documentType: 'nfe' as const,
  series,
  request: { test: true, series },
  totalAmount: extra.totalAmount ?? '10.00',
  ...(extra.number !== undefined ? { number: extra.number } : {}),
  ...(extra.id ? { id: extra.id } : {}),
  ...(extra.reissueOfId ? { reissueOfId: extra.reissueOfId } : {}),
});

const sorted = (numbers: number[]) => [...numbers].sort((a, b) => a - b);
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('InvoicesRepository with batching', () => {
  it('two reissues of one attempt in one batch: the earlier is inserted, the later names it', async () => {
    const { repository } = batchedRepository();
    const original = await repository.createProcessing(draft(120));
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => repository.createProcessing(draft(120, { reissueOfId: original.id }))),
    );
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(created).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(AlreadyReissuedError);
      expect((result as PromiseRejectedResult).reason).toMatchObject({ replacementId: created[0]!.id });
    }
    expect(await prisma.invoice.count({ where: { reissueOfId: original.id } })).toBe(1);
  });

  it('gives many concurrent calls on one series distinct consecutive numbers, in far fewer statements', async () => {
    const { repository, sql, numbering } = batchedRepository();
    const created = await Promise.all(Array.from({ length: 40 }, () => repository.createProcessing(draft(101))));
    expect(sorted(created.map((i) => i.number))).toEqual(range(1, 40));
    expect(new Set(created.map((i) => i.id)).size).toBe(40);
    // 40 calls of maxBatch 32: at most a few statements of each kind, and every call is in one of them.
    const reservations = [...numbering.named('talao_number_reserve_blocks'), ...numbering.named('talao_number_reserve')];
    const inserts = [...sql.named('talao_invoice_insert_many'), ...sql.named('talao_invoice_insert')];
    expect(reservations.length).toBeLessThanOrEqual(4);
    expect(inserts.length).toBeLessThanOrEqual(4);
    expect(inserts.reduce((n, s) => n + s.rows, 0)).toBe(40);
    expect(
      await prisma.numberSequence.findFirst({ where: { companyId: companyIds[0]!, series: 101 }, select: { nextNumber: true } }),
    ).toEqual({ nextNumber: 41n });
  });

  it('mixes series and companies in one batch, each key numbered on its own, also beside unbatched calls', async () => {
    const { repository, numbering } = batchedRepository();
    const single = new InvoicesRepository(prisma, pgPoolSqlRunner(sqlPool), pgPoolSqlRunner(numberingPool));
    const keys = [
      { series: 102, companyId: companyIds[0]! },
      { series: 103, companyId: companyIds[0]! },
      { series: 102, companyId: companyIds[1]! },
    ];
    const calls = Array.from({ length: 30 }, (_, i) => keys[i % 3]!).map((k, i) =>
      (i % 5 === 4 ? single : repository).createProcessing(draft(k.series, { companyId: k.companyId })),
    );
    const created = await Promise.all(calls);
    for (const k of keys) {
      const numbers = created.filter((c) => c.series === k.series && c.companyId === k.companyId).map((c) => c.number);
      expect(sorted(numbers)).toEqual(range(1, 10));
    }
    expect(numbering.named('talao_number_reserve_blocks').some((s) => s.rows === 3)).toBe(true); // three keys in one statement
  });

  it('hands out numbers of one key in call order within a block, and releases only the last one reserved', async () => {
    const runner = pgPoolSqlRunner(numberingPool);
    const a: SequenceKey = { companyId: companyIds[1]!, environment: 'homologation', documentType: 'nfe', series: 104 };
    const b: SequenceKey = { ...a, documentType: 'nfse' };
    expect(await reserveNumbers(runner, [a, b, a, a, b])).toEqual([1, 1, 2, 3, 2]);
    expect(await releaseNumber(runner, a, 2)).toBe(false); // inside the block: stays a gap
    expect(await releaseNumber(runner, a, 3)).toBe(true); // the last reserved: given back
    expect(await reserveNumber(runner, a)).toBe(3);
    // Concurrent blocks and single reservations on the same keys never share a number.
    const results = await Promise.all([
      ...range(0, 6).map(() => reserveNumbers(runner, [b, a, b, a])),
      ...range(0, 6).map(() => reserveNumber(runner, a).then((n) => [n])),
    ]);
    const ofA = results.flatMap((r, i) => (i < 6 ? [r[1]!, r[3]!] : r));
    const ofB = results.slice(0, 6).flatMap((r) => [r[0]!, r[2]!]);
    expect(sorted(ofA)).toEqual(range(4, 18));
    expect(sorted(ofB)).toEqual(range(3, 12));
  });

  it('two calls of one batch naming the same number: the earlier wins, the others get NumberTakenError', async () => {
    const { repository, sql } = batchedRepository();
    const results = await Promise.allSettled([
      repository.createProcessing(draft(105, { number: 50 })),
      repository.createProcessing(draft(105, { number: 50 })),
      repository.createProcessing(draft(105, { number: 50 })),
      repository.createProcessing(draft(105)),
      repository.createProcessing(draft(105, { number: 51 })),
    ]);
    // The explicit numbers go straight to the insert, together; the automatic one follows its reservation.
    expect(sql.named('talao_invoice_insert_many')).toEqual([{ name: 'talao_invoice_insert_many', rows: 4 }]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    for (const r of [results[1], results[2]]) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(NumberTakenError);
    expect((results[0] as PromiseFulfilledResult<{ number: number }>).value.number).toBe(50);
    expect((results[3] as PromiseFulfilledResult<{ number: number }>).value.number).toBe(1);
    expect(await prisma.invoice.count({ where: { companyId: companyIds[0]!, series: 105 } })).toBe(3);
  });

  it('an id already taken, before or earlier in the same batch, still fails with "already exists"', async () => {
    const { repository } = batchedRepository();
    const taken = (await repository.createProcessing(draft(106))).id;
    const twice = randomUUID();
    const results = await Promise.allSettled([
      repository.createProcessing(draft(106, { id: taken })),
      repository.createProcessing(draft(106, { id: twice })),
      repository.createProcessing(draft(106, { id: twice })),
      repository.createProcessing(draft(106)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason.message).toBe(`invoice ${taken} already exists`);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe(`invoice ${twice} already exists`);
    expect(await prisma.invoice.count({ where: { companyId: companyIds[0]!, series: 106 } })).toBe(3);
  });

  it('a row that breaks the batch fails alone: the others of its batch are inserted', async () => {
    const { repository, sql } = batchedRepository();
    const results = await Promise.allSettled([
      repository.createProcessing(draft(107)),
      repository.createProcessing(draft(107, { totalAmount: 'not-a-number' })),
      repository.createProcessing(draft(107)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(sql.named('talao_invoice_insert_many')).toHaveLength(1); // the failed batch; then one statement per call
    expect(sql.named('talao_invoice_insert')).toHaveLength(3);
  });

  it('returns each record exactly as the stored row reads (amount rounded by numeric(15,2), identities, timestamps)', async () => {
    const { repository } = batchedRepository();
    const original = await repository.createProcessing(draft(108));
    const createdAt = new Date('2026-11-20T10:11:12.345Z');
    const created = await Promise.all([
      repository.createProcessing({
        ...draft(108, { totalAmount: '1234.5' }),
        request: { a: [1, 'x', null], nested: { amount: '1.50' } },
        createdAt,
      }),
      repository.createProcessing({ ...draft(108, { totalAmount: '10.005' }), describe: () => ({ accessKey: 'K'.repeat(44) }) }),
      repository.createProcessing({
        ...draft(108, { totalAmount: '0' }),
        reissueOfId: original.id,
        describe: (n) => ({ dpsId: `D${n}`, totalAmount: '7.10' }),
      }),
    ]);
    expect(created.map((c) => c.totalAmount)).toEqual(['1234.5', '10.01', '7.1']);
    expect(created[0]!.createdAt).toEqual(createdAt);
    for (const record of created) {
      expect(record).toEqual(await repository.findById(record.id)); // invoiceRecordOf of the stored row
      expect(record).toEqual(await repository.findById(record.id, prisma)); // Prisma's own mapping
    }
    // The multi-row statement by itself (no single-row shortcut): the same records.
    const rows = [0, 1].map((i) => ({
      id: randomUUID(),
      companyId: companyIds[1]!,
      environment: 'production' as const,
      documentType: 'nfse' as const,
      series: 108,
      number: 900 + i,
      request: { i, text: 'aspas " e \\ barra' },
      totalAmount: '99.999',
      createdAt,
      dpsId: `DPS${i}`,
    }));
    const inserted = await insertProcessingInvoices(pgPoolSqlRunner(sqlPool), rows);
    for (const record of inserted) expect(record).toEqual(await repository.findById(record!.id));
    expect(inserted.map((r) => r!.totalAmount)).toEqual(['100', '100']);
  });
});
