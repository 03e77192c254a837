import type { DbClient, DocumentTypeName, EnvironmentName } from './issuance-records.js';

export interface SequenceKey {
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  series: number;
}

/**
 * Next free number per company, environment, model and series. The reservation is one upsert, so two
 * concurrent reservations serialise on the row lock and never receive the same number; callers run it inside the
 * transaction that inserts the invoice, so a failed insert gives the number back.
 */
export class NumberSequencesRepository {
  async reserveNext(tx: DbClient, key: SequenceKey): Promise<number> {
    // Prisma runs this as INSERT … ON CONFLICT DO UPDATE (a native upsert: unique where, plain increment), so the
    // row lock is taken in one statement.
    const row = await tx.numberSequence.upsert({
      where: { companyId_environment_documentType_series: key },
      create: { ...key, nextNumber: 2n },
      update: { nextNumber: { increment: 1 } },
      select: { nextNumber: true },
    });
    return Number(row.nextNumber) - 1;
  }

  async peekNext(tx: DbClient, key: SequenceKey): Promise<number> {
    const row = await tx.numberSequence.findUnique({
      where: { companyId_environment_documentType_series: key },
      select: { nextNumber: true },
    });
    return row ? Number(row.nextNumber) : 1;
  }
}
