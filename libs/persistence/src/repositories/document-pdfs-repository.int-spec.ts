// Stored PDFs against the run's real PostgreSQL (DATABASE_URL), on both runners a caller may give the repository (a pg
// pool's prepared statements, as the gateway and the renderer do, and Prisma's raw queries, the default): the lookup
// by each kind of key, the render job's one read (the stored version, the latest registered correction letter), the
// bytes kept exactly, a version replaced, and nothing of another company's.
import { randomBytes } from 'node:crypto';
import { nfeDraft } from '../testing/issuance-fixtures.js';
import { testPrismaClient, useScratchCompany } from '../testing/test-database.js';
import { DocumentPdfsRepository } from './document-pdfs-repository.js';
import { InvoicesRepository } from './invoices-repository.js';
import { createSqlPool, pgPoolSqlRunner, prismaSqlRunner } from './sql-runner.js';

const prisma = testPrismaClient();
const pool = createSqlPool(process.env.DATABASE_URL as string, 2);
const invoices = new InvoicesRepository(prisma);
const company = useScratchCompany(prisma, 'Impressos Ltda');
const otherCompany = useScratchCompany(prisma, 'Outra Impressos Ltda');

afterAll(async () => {
  await pool.end();
  await prisma.$disconnect();
});

const RUNNERS = [
  ['a pg pool', () => pgPoolSqlRunner(pool)],
  ['Prisma', () => prismaSqlRunner(prisma)],
] as const;

/** An authorized NF-e of the scratch company, with an access key (and, for the DPS case, a DPS id). */
async function issuedInvoice(series: number): Promise<{ id: string; accessKey: string; dpsId: string }> {
  const invoice = await invoices.createProcessing(nfeDraft(company(), series));
  const accessKey = `3526114581273600010055${String(series).padStart(3, '0')}${String(invoice.number).padStart(9, '0')}1${'0'.repeat(9)}`;
  const dpsId = `DPS${'1'.repeat(30)}${String(invoice.number).padStart(12, '0')}`;
  await prisma.invoice.update({ where: { id: invoice.id }, data: { status: 'issued', accessKey, dpsId, authorizedXml: '<nfeProc/>' } });
  return { id: invoice.id, accessKey, dpsId };
}

describe.each(RUNNERS)('DocumentPdfsRepository on %s', (_name, runner) => {
  const pdfs = () => new DocumentPdfsRepository(prisma, runner());
  const scope = () => ({ companyId: company(), environment: 'homologation' as const, documentType: 'nfe' as const });

  it('finds the invoice by id, access key or DPS id, without a PDF until one is saved', async () => {
    const invoice = await issuedInvoice(41);
    for (const key of [{ id: invoice.id }, { accessKey: invoice.accessKey }, { accessKey: invoice.dpsId }]) {
      expect(await pdfs().lookup(scope(), key)).toMatchObject({
        invoiceId: invoice.id,
        companyId: company(),
        environment: 'homologation',
        documentType: 'nfe',
        status: 'issued',
        accessKey: invoice.accessKey,
        hasAuthorizedXml: true,
        stored: null,
      });
    }
    expect(await pdfs().loadForRender(invoice.id)).toMatchObject({
      invoiceId: invoice.id,
      companyId: company(),
      documentType: 'nfe',
      status: 'issued',
      authorizedXml: '<nfeProc/>',
      stored: null,
      latestCorrection: null,
    });
  });

  it('reads for a render the registered correction letter of the highest sequence: not a pending, refused or cancelling one', async () => {
    const invoice = await issuedInvoice(44);
    const filed = (kind: string, sequence: number, status: string) =>
      prisma.amendment.create({
        data: {
          companyId: company(),
          environment: 'homologation',
          invoiceId: invoice.id,
          kind,
          sequence,
          text: `${kind} ${sequence}`,
          status,
          ...(status === 'registered' && { protocol: `13526000000000${sequence}`, registeredAt: new Date('2026-11-25T12:00:00Z') }),
        },
      });
    await filed('correction', 1, 'registered');
    expect((await pdfs().loadForRender(invoice.id))?.latestCorrection).toEqual({
      sequence: 1,
      text: 'correction 1',
      protocol: '135260000000001',
      registeredAt: new Date('2026-11-25T12:00:00Z'),
    });
    await filed('correction', 2, 'registered');
    await filed('correction', 3, 'rejected');
    await filed('correction', 4, 'pending');
    await filed('cancellation', 5, 'registered');
    expect((await pdfs().loadForRender(invoice.id))?.latestCorrection).toMatchObject({ sequence: 2, text: 'correction 2' });
  });

  it('keeps the bytes exactly, serves them for their version only, and replaces them with a new version', async () => {
    const invoice = await issuedInvoice(42);
    const first = randomBytes(48 * 1024);
    const sha = await pdfs().save({
      invoiceId: invoice.id,
      companyId: company(),
      version: 'r1.authorized.a',
      pdf: first,
      pageCount: 1,
      renderMs: 12.6,
    });
    expect((await pdfs().loadForRender(invoice.id))?.stored).toEqual({ version: 'r1.authorized.a', sha256: sha });
    const found = await pdfs().find(company(), invoice.id, 'r1.authorized.a');
    expect(found?.pdf.equals(first)).toBe(true);
    expect(found).toMatchObject({ invoiceId: invoice.id, companyId: company(), sha256: sha, pageCount: 1 });
    expect(found?.renderedAt).toBeInstanceOf(Date);
    expect((await pdfs().lookup(scope(), { id: invoice.id }))?.stored?.pdf.equals(first)).toBe(true);
    expect(await pdfs().find(company(), invoice.id, 'r1.cancelled.b')).toBeNull();

    const second = randomBytes(1024);
    const secondSha = await pdfs().save({
      invoiceId: invoice.id,
      companyId: company(),
      version: 'r1.cancelled.b',
      pdf: second,
      pageCount: 2,
      renderMs: 3,
    });
    expect(secondSha).not.toBe(sha);
    expect(await pdfs().find(company(), invoice.id, 'r1.authorized.a')).toBeNull();
    expect((await pdfs().find(company(), invoice.id, 'r1.cancelled.b'))?.pdf.equals(second)).toBe(true);
    expect((await pdfs().loadForRender(invoice.id))?.stored).toEqual({ version: 'r1.cancelled.b', sha256: secondSha });
  });

  it("never returns another company's invoice or PDF, and answers nothing for ids that are not UUIDs", async () => {
    const invoice = await issuedInvoice(43);
    await pdfs().save({
      invoiceId: invoice.id,
      companyId: company(),
      version: 'v',
      pdf: Buffer.from('%PDF-1.4'),
      pageCount: 1,
      renderMs: 1,
    });
    const foreign = { ...scope(), companyId: otherCompany() };
    expect(await pdfs().lookup(foreign, { id: invoice.id })).toBeNull();
    expect(await pdfs().lookup(foreign, { accessKey: invoice.accessKey })).toBeNull();
    expect(await pdfs().find(otherCompany(), invoice.id, 'v')).toBeNull();
    expect(await pdfs().lookup({ ...scope(), documentType: 'nfse' }, { id: invoice.id })).toBeNull();
    expect(await pdfs().lookup(scope(), { id: 'not-a-uuid' })).toBeNull();
    expect(await pdfs().find(company(), 'not-a-uuid', 'v')).toBeNull();
    expect(await pdfs().loadForRender('not-a-uuid')).toBeNull();
  });
});
