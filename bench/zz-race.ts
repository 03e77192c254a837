import { createPrismaClient, InvalidationsRepository, InvoicesRepository, prismaSqlRunner, type SqlRunner } from '@talao/persistence';
import { withScratchDatabase } from './support/scratch-database.js';

await withScratchDatabase('talao_zz_race', async (url) => {
  const prisma = createPrismaClient(url);
  try {
    const company = await prisma.company.create({
      data: { taxId: '99887766000100', legalName: 'X LTDA', taxRegime: 'normal', street: 'R', number: '1', district: 'D', cityCode: '3550308', cityName: 'Sao Paulo', state: 'SP', postalCode: '01310100' },
    });
    const invalidations = new InvalidationsRepository(prisma);
    const base = prismaSqlRunner(prisma);
    // The invalidation lands between the reservation (its own autocommit statement) and the invoice insert.
    const numbering: SqlRunner = {
      async query<T>(name: string, text: string, values: unknown[]) {
        const rows = await base.query<T>(name, text, values);
        const number = Number((rows[0] as { number: bigint }).number);
        const filed = await invalidations.file({ companyId: company.id, environment: 'homologation', series: 1, numberStart: number, numberEnd: number, reason: 'Numeracao pulada por falha no sistema' });
        console.log(`reserved ${number}; invalidation of ${number}–${number}: ${filed.kind}`);
        return rows;
      },
    };
    const invoices = new InvoicesRepository(prisma, base, numbering);
    const created = await invoices.createProcessing({ companyId: company.id, environment: 'homologation', documentType: 'nfe', series: 1, request: {}, totalAmount: '1.00' });
    console.log(`invoice created with number ${created.number} (status ${created.status}); invalidated? ${await invoices.isInvalidated({ companyId: company.id, environment: 'homologation', series: 1 }, Number(created.number))}`);
  } finally {
    await prisma.$disconnect();
  }
});
