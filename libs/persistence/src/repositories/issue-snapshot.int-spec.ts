// The issue job's one read against the run's real PostgreSQL (DATABASE_URL): the same records the single-purpose
// reads give (Prisma's company, the active certificate, the exchanges in order), through Prisma and through a pg pool.
import { randomBytes, randomUUID } from 'node:crypto';
import { CertificateVault } from '../certificate-vault.js';
import { createPrismaClient } from '../prisma-client.js';
import { nfeDraft } from '../testing/issuance-fixtures.js';
import { CertificatesRepository } from './certificates-repository.js';
import { InvoicesRepository } from './invoices-repository.js';
import { createSqlPool, pgPoolSqlRunner } from './sql-runner.js';
import { SubmissionsRepository } from './submissions-repository.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const prisma = createPrismaClient(databaseUrl);
const pool = createSqlPool(databaseUrl, 2);
const viaPrisma = new InvoicesRepository(prisma);
const viaPool = new InvoicesRepository(prisma, pgPoolSqlRunner(pool));
const submissions = new SubmissionsRepository(prisma, pgPoolSqlRunner(pool));
const certificates = new CertificatesRepository(prisma, new CertificateVault(randomBytes(32).toString('base64')));
let companyId: string;

const metadata = (serial: string) => ({
  subjectTaxId: '11222333000181',
  subjectName: `EMPRESA ${serial}:11222333000181`,
  issuerName: 'AC Teste',
  serialNumber: serial,
  notBefore: new Date('2026-01-01T00:00:00.000Z'),
  notAfter: new Date('2027-01-01T00:00:00.000Z'),
});

beforeAll(async () => {
  const taxId = String(Date.now()).padStart(14, '5').slice(-14);
  const company = await prisma.company.create({
    data: {
      taxId,
      legalName: 'Retrato Ltda',
      cityCode: '3550308',
      cityName: 'Sao Paulo',
      state: 'SP',
      taxRegime: 'simples_nacional',
      overagePrice: '0.1234',
      productionQuota: 7,
    },
  });
  companyId = company.id;
});

afterAll(async () => {
  await prisma.company.delete({ where: { id: companyId } });
  await prisma.$disconnect();
  await pool.end();
});

describe('InvoicesRepository.loadForIssue', () => {
  it('reads the invoice, its company, the active certificate and the exchanges as the single-purpose reads do', async () => {
    const invoice = await viaPool.createProcessing(
      nfeDraft(companyId, 31, { request: { items: [{ amount: '1.50' }] }, totalAmount: '1.50' }),
    );
    const empty = await viaPool.loadForIssue(invoice.id);
    expect(empty).toEqual({
      invoice,
      company: await prisma.company.findUnique({ where: { id: companyId } }),
      certificate: null,
      submissions: [],
      invalidationId: null,
    });
    expect(empty?.company?.overagePrice?.toString()).toBe('0.1234');

    await certificates.store(companyId, { pkcs12: randomBytes(50), password: 'a', metadata: metadata('01') });
    const active = await certificates.store(companyId, { pkcs12: randomBytes(50), password: 'b', metadata: metadata('02') });
    const first = await submissions.begin({
      invoiceId: invoice.id,
      companyId,
      operation: 'NFeAutorizacao4',
      endpoint: 'https://sim/a',
      requestBody: '<a>ç &amp;</a>',
    });
    await submissions.answer(first.id, { responseBody: '<r/>', httpStatus: 200, outcome: 'unknown', statusMessage: 'reset' });
    await submissions.begin({
      invoiceId: invoice.id,
      companyId,
      operation: 'NFeConsultaProtocolo4',
      endpoint: 'https://sim/c',
      requestBody: '<c/>',
    });

    const expected = {
      invoice,
      company: await prisma.company.findUnique({ where: { id: companyId } }),
      certificate: { id: active.id, metadata: metadata('02') },
      submissions: await new SubmissionsRepository(prisma).listByInvoice(invoice.id),
      invalidationId: null,
    };
    expect(expected.submissions.map((s) => s.attempt)).toEqual([1, 2]);
    expect(await viaPool.loadForIssue(invoice.id)).toEqual(expected);
    expect(await viaPrisma.loadForIssue(invoice.id)).toEqual(expected);
  });

  it('names the invalidation (pending or registered) whose range holds an NF-e number; a rejected range does not count', async () => {
    const invoice = await viaPool.createProcessing(nfeDraft(companyId, 32, { request: {} }));
    const range = (status: string, numberStart: bigint, numberEnd: bigint) =>
      prisma.invalidation.create({
        data: { companyId, environment: 'homologation', series: 32, numberStart, numberEnd, reason: 'faixa de teste pulada', status },
      });
    await range('rejected', BigInt(invoice.number - 1), BigInt(invoice.number));
    expect((await viaPool.loadForIssue(invoice.id))?.invalidationId).toBeNull();
    const pending = await range('pending', BigInt(invoice.number), BigInt(invoice.number + 2));
    expect((await viaPool.loadForIssue(invoice.id))?.invalidationId).toBe(pending.id);
    expect((await viaPrisma.loadForIssue(invoice.id))?.invalidationId).toBe(pending.id);
  });

  it('is null for an unknown or malformed id', async () => {
    expect(await viaPool.loadForIssue(randomUUID())).toBeNull();
    expect(await viaPool.loadForIssue('not-a-uuid')).toBeNull();
  });
});
