// An NF-e entering SVC contingency gets a new access key (tpEmis is part of it); the change and the outbox event that
// reports it (invoice.contingency_entered) are one statement, so both or neither (invariant 2), and only while the
// invoice is still `processing`.
import { randomUUID } from 'node:crypto';
import type { NewOutboxEvent } from './issuance-records.js';
import type { SqlRunner } from './sql-runner.js';

const ENTER_CONTINGENCY = `WITH changed AS (
  UPDATE invoices SET access_key = $2::varchar, contingency = true, updated_at = now()
  WHERE id = $1::uuid AND status = 'processing'
  RETURNING id
), appended AS (
  INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload)
  SELECT $3::uuid, $4::uuid, $5::"Environment", $6::varchar, $7::uuid, $8::jsonb
  FROM changed
  RETURNING id
)
SELECT (SELECT count(*) FROM changed)::int AS changed`;

export async function enterContingency(sql: SqlRunner, invoiceId: string, accessKey: string, event: NewOutboxEvent): Promise<boolean> {
  const rows = await sql.query<{ changed: number }>('talao_enter_contingency', ENTER_CONTINGENCY, [
    invoiceId,
    accessKey,
    randomUUID(),
    event.companyId,
    event.environment,
    event.type,
    event.aggregateId,
    JSON.stringify(event.payload),
  ]);
  return rows[0]?.changed === 1;
}
