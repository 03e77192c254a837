import type { DbClient, DocumentTypeName, EnvironmentName } from './issuance-records.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';

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
 * reserved and then not inserted stays a gap (as a rejected one does) unless `releaseNumber` can give it back.
 */
const RESERVE = `INSERT INTO number_sequences (company_id, environment, document_type, series, next_number, updated_at)
VALUES ($1::uuid, $2::"Environment", $3::"DocumentType", $4::int, 2, now())
ON CONFLICT (company_id, environment, document_type, series)
DO UPDATE SET next_number = number_sequences.next_number + 1, updated_at = now()
RETURNING next_number - 1 AS number`;

// Compare-and-set: only while `number` is still the last one reserved, so a later reservation is never undone.
const RELEASE = `UPDATE number_sequences SET next_number = next_number - 1, updated_at = now()
WHERE company_id = $1::uuid AND environment = $2::"Environment" AND document_type = $3::"DocumentType" AND series = $4::int
  AND next_number = $5::bigint
RETURNING next_number`;

const keyValues = (key: SequenceKey) => [key.companyId, key.environment, key.documentType, key.series];

export async function reserveNumber(sql: SqlRunner, key: SequenceKey): Promise<number> {
  const rows = await sql.query<{ number: bigint | string }>('talao_number_reserve', RESERVE, keyValues(key));
  const reserved = rows[0];
  if (!reserved) throw new Error('number reservation returned no row');
  return Number(reserved.number);
}

/** Gives `number` back when it is still the last one reserved; false when it stays a gap. */
export async function releaseNumber(sql: SqlRunner, key: SequenceKey, number: number): Promise<boolean> {
  const rows = await sql.query('talao_number_release', RELEASE, [...keyValues(key), number + 1]);
  return rows.length === 1;
}

export class NumberSequencesRepository {
  reserveNext(client: DbClient, key: SequenceKey): Promise<number> {
    return reserveNumber(prismaSqlRunner(client), key);
  }

  release(client: DbClient, key: SequenceKey, number: number): Promise<boolean> {
    return releaseNumber(prismaSqlRunner(client), key, number);
  }

  async peekNext(tx: DbClient, key: SequenceKey): Promise<number> {
    const row = await tx.numberSequence.findUnique({
      where: { companyId_environment_documentType_series: key },
      select: { nextNumber: true },
    });
    return row ? Number(row.nextNumber) : 1;
  }
}
