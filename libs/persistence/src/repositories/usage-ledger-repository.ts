import type { PrismaClient } from '../generated/prisma/client.js';
import type { DbClient, DocumentTypeName, EnvironmentName } from './issuance-records.js';

/** The usage ledger: one row per charged credit; `invoiceId` is unique, so an invoice is never charged twice. */
export class UsageLedgerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async creditsInPeriod(companyId: string, environment: EnvironmentName, period: string, client: DbClient = this.prisma): Promise<number> {
    const result = await client.usageEntry.aggregate({ where: { companyId, environment, period }, _sum: { credits: true } });
    return result._sum.credits ?? 0;
  }

  /** Records one credit inside the caller's transaction; a second charge of the same invoice is ignored. */
  async charge(tx: DbClient, entry: { companyId: string; environment: EnvironmentName; invoiceId: string; documentType: DocumentTypeName; period: string; unitPrice?: string }): Promise<void> {
    await tx.usageEntry.upsert({
      where: { invoiceId: entry.invoiceId },
      create: { ...entry, credits: 1, ...(entry.unitPrice ? { unitPrice: entry.unitPrice } : {}) },
      update: {},
    });
  }

  findByInvoice(invoiceId: string) {
    return this.prisma.usageEntry.findUnique({ where: { invoiceId } });
  }
}
