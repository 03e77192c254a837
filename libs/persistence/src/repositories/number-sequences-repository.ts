import type { DbClient, DocumentTypeName, EnvironmentName } from './issuance-records.js';

export interface SequenceKey {
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  series: number;
}

/**
 * Next free number per company, environment, model and series. The reservation is one statement
 * (INSERT … ON CONFLICT DO UPDATE), so two concurrent reservations serialise on the row lock and never receive the
 * same number. Run on its own (autocommit) the row lock lasts only that statement: every issuance of a series goes
 * through this row, so holding it across further round trips would cap the series' throughput. The price: a number
 * reserved and then not inserted stays a gap (as a rejected one does) unless `release` can give it back.
 */
export class NumberSequencesRepository {
  async reserveNext(client: DbClient, key: SequenceKey): Promise<number> {
    const rows = await client.$queryRaw<Array<{ number: bigint }>>`
      INSERT INTO number_sequences (company_id, environment, document_type, series, next_number, updated_at)
      VALUES (${key.companyId}::uuid, ${key.environment}::"Environment", ${key.documentType}::"DocumentType", ${key.series}, 2, now())
      ON CONFLICT (company_id, environment, document_type, series)
      DO UPDATE SET next_number = number_sequences.next_number + 1, updated_at = now()
      RETURNING next_number - 1 AS number`;
    const reserved = rows[0];
    if (!reserved) throw new Error('number reservation returned no row');
    return Number(reserved.number);
  }

  /**
   * Gives `number` back when it is still the last one reserved (compare-and-set, so a later reservation is never
   * undone); false when it could not be, and the number stays a gap.
   */
  async release(client: DbClient, key: SequenceKey, number: number): Promise<boolean> {
    const released = await client.$executeRaw`
      UPDATE number_sequences SET next_number = next_number - 1, updated_at = now()
      WHERE company_id = ${key.companyId}::uuid AND environment = ${key.environment}::"Environment"
        AND document_type = ${key.documentType}::"DocumentType" AND series = ${key.series} AND next_number = ${number + 1}::bigint`;
    return released === 1;
  }

  async peekNext(tx: DbClient, key: SequenceKey): Promise<number> {
    const row = await tx.numberSequence.findUnique({
      where: { companyId_environment_documentType_series: key },
      select: { nextNumber: true },
    });
    return row ? Number(row.nextNumber) : 1;
  }
}
