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

/**
 * Many reservations in one statement (StatementBatcher's runBatch, on a coalescing runner): one row per distinct
 * key with the count of numbers it needs; the row lock hands the key's whole block [next_number, next_number + count)
 * to this statement, so neither a concurrent batch nor a single reservation can receive any number of it. A key may
 * appear only once (ON CONFLICT DO UPDATE cannot touch a row twice in one statement): reserveNumbers groups them.
 */
const RESERVE_BLOCKS = `INSERT INTO number_sequences (company_id, environment, document_type, series, next_number, updated_at)
SELECT k.company_id, k.environment, k.document_type, k.series, k.count + 1, now()
FROM unnest($1::uuid[], $2::"Environment"[], $3::"DocumentType"[], $4::int[], $5::bigint[]) AS k(company_id, environment, document_type, series, count)
ON CONFLICT (company_id, environment, document_type, series)
DO UPDATE SET next_number = number_sequences.next_number + (excluded.next_number - 1), updated_at = now()
RETURNING company_id::text AS company_id, environment::text AS environment, document_type::text AS document_type, series, next_number`;

// Compare-and-set: only while `number` is still the last one reserved, so a later reservation is never undone.
const RELEASE = `UPDATE number_sequences SET next_number = next_number - 1, updated_at = now()
WHERE company_id = $1::uuid AND environment = $2::"Environment" AND document_type = $3::"DocumentType" AND series = $4::int
  AND next_number = $5::bigint
RETURNING next_number`;

const keyValues = (key: SequenceKey) => [key.companyId, key.environment, key.documentType, key.series];

async function reserveOne(sql: SqlRunner, key: SequenceKey): Promise<number> {
  const rows = await sql.query<{ number: bigint | string }>('talao_number_reserve', RESERVE, keyValues(key));
  const reserved = rows[0];
  if (!reserved) throw new Error('number reservation returned no row');
  return Number(reserved.number);
}

/** The next number of the key's series. On a coalescing runner, reserved together with concurrent calls. */
export function reserveNumber(sql: SqlRunner, key: SequenceKey): Promise<number> {
  const batcher = sql.batcher?.('talao_number_reserve_blocks', (keys: SequenceKey[]) => reserveNumbers(sql, keys));
  return batcher ? batcher.run(key) : reserveOne(sql, key);
}

const keyString = (key: { companyId: string; environment: string; documentType: string; series: number }) =>
  `${key.companyId.toLowerCase()}|${key.environment}|${key.documentType}|${key.series}`;

/**
 * One number per entry of `keys`, in one statement: entries of the same key receive consecutive numbers in their order
 * (no gap, no duplicate). The keys are locked in a fixed order (sorted), so two concurrent batches wait for each other
 * instead of deadlocking. A number of such a block can be given back by `releaseNumber` only while it is the last one
 * reserved of its key (the last of the block, or an earlier one once the later ones were given back); any other stays a
 * gap, as a number whose insert failed after a later reservation does.
 */
export async function reserveNumbers(sql: SqlRunner, keys: readonly SequenceKey[]): Promise<number[]> {
  if (keys.length === 1) return [await reserveOne(sql, keys[0]!)];
  const groups = new Map<string, { key: SequenceKey; count: number; next: number }>();
  const groupOf = keys.map((key) => {
    const id = keyString(key);
    const group = groups.get(id) ?? { key, count: 0, next: 0 };
    group.count++;
    groups.set(id, group);
    return group;
  });
  const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
  const rows = await sql.query<{
    company_id: string;
    environment: string;
    document_type: string;
    series: number;
    next_number: bigint | string;
  }>('talao_number_reserve_blocks', RESERVE_BLOCKS, [
    sorted.map((g) => g.key.companyId),
    sorted.map((g) => g.key.environment),
    sorted.map((g) => g.key.documentType),
    sorted.map((g) => g.key.series),
    sorted.map((g) => g.count),
  ]);
  for (const row of rows) {
    const group = groups.get(
      keyString({ companyId: row.company_id, environment: row.environment, documentType: row.document_type, series: Number(row.series) }),
    );
    if (group) group.next = Number(row.next_number) - group.count;
  }
  return groupOf.map((group) => {
    if (group.next === 0) throw new Error('number reservation returned no row for a key');
    return group.next++;
  });
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
