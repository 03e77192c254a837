import type { PrismaClient } from '../generated/prisma/client.js';
import type { DbClient, EnvironmentName } from './issuance-records.js';

/**
 * The usage ledger: one row per charged credit; `invoiceId` is unique, so an invoice is never charged twice. A credit is
 * written with the invoice's final state (InvoicesRepository.finishWithEvent's `charge`).
 */
export class UsageLedgerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async creditsInPeriod(companyId: string, environment: EnvironmentName, period: string, client: DbClient = this.prisma): Promise<number> {
    const result = await client.usageEntry.aggregate({ where: { companyId, environment, period }, _sum: { credits: true } });
    return result._sum.credits ?? 0;
  }

  findByInvoice(invoiceId: string) {
    return this.prisma.usageEntry.findUnique({ where: { invoiceId } });
  }
}
