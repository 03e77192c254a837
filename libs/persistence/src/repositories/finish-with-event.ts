// The issuer's most frequent write: an invoice leaves `processing` and its outbox event is appended. As one SQL
// statement (a data-modifying CTE) it is atomic like a transaction (invariant 2: both or neither) and costs one round
// trip instead of four (BEGIN, UPDATE, INSERT, COMMIT) — the issue job's largest share of database time.
// The text depends only on which fields the final state sets (and whether an answer rides along), so each shape is
// one named prepared statement on a pg pool: parsed and planned once per connection.
import { randomUUID } from 'node:crypto';
import type { EnvironmentName } from './issuance-records.js';
import type { FinalState } from './invoices-repository.js';
import type { SqlRunner } from './sql-runner.js';
import type { SubmissionAnswer } from './submissions-repository.js';

export interface NewOutboxEvent {
  companyId: string;
  environment: EnvironmentName;
  type: string;
  aggregateId: string;
  payload: Record<string, unknown>;
}

/** The optional columns of the final transition: a field left undefined keeps its value, null clears it. */
const OPTIONAL_FIELDS = [
  ['accessKey', 'access_key', 'varchar'],
  ['protocol', 'protocol', 'varchar'],
  ['statusCode', 'status_code', 'varchar'],
  ['statusMessage', 'status_message', 'text'],
  ['authorizedXml', 'authorized_xml', 'text'],
  ['issuedAt', 'issued_at', 'timestamptz'],
] as const satisfies ReadonlyArray<readonly [keyof FinalState, string, string]>;

interface Statement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Moves the invoice to its final state only from `processing`, and appends the event only when this statement moved
 * it (a second finisher changes nothing and appends nothing). With `answered`, the submission's answer is stored by
 * the same statement — a data-modifying CTE runs whether or not the invoice moves, so the answer is kept even when
 * another run finished the invoice.
 */
function finishStatement(id: string, state: FinalState, event: NewOutboxEvent, answered?: { submissionId: string; answer: SubmissionAnswer }): Statement {
  const values: unknown[] = [];
  const param = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
  const invoiceId = param(id, 'uuid');
  const set = [`status = ${param(state.status, '"InvoiceStatus"')}`, 'updated_at = now()'];
  let shape = 0;
  OPTIONAL_FIELDS.forEach(([field, column, type], bit) => {
    if (state[field] === undefined) return;
    shape |= 1 << bit;
    set.push(`${column} = ${param(state[field], type)}`);
  });
  let answeredCte = '';
  if (answered) {
    const { submissionId, answer } = answered;
    answeredCte = `answered AS (
      UPDATE submissions SET response_body = ${param(answer.responseBody ?? null, 'text')}, http_status = ${param(answer.httpStatus ?? null, 'int')},
             outcome = ${param(answer.outcome, 'varchar')}, status_code = ${param(answer.statusCode ?? null, 'varchar')},
             status_message = ${param(answer.statusMessage ?? null, 'text')}, answered_at = ${param(new Date(), 'timestamptz')}
      WHERE id = ${param(submissionId, 'uuid')}
      RETURNING id
    ), `;
  }
  const eventValues = [
    param(randomUUID(), 'uuid'), param(event.companyId, 'uuid'), param(event.environment, '"Environment"'), param(event.type, 'varchar'),
    param(event.aggregateId, 'uuid'), param(JSON.stringify(event.payload), 'jsonb'),
  ].join(', ');
  const text = `WITH ${answeredCte}moved AS (
      UPDATE invoices SET ${set.join(', ')}
      WHERE id = ${invoiceId} AND status = 'processing'
      RETURNING id
    ), appended AS (
      INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload)
      SELECT ${eventValues}
      FROM moved
      RETURNING id
    )
    SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM appended)::int AS appended${
      answered ? ', (SELECT count(*) FROM answered)::int AS answered' : ''
    }`;
  return { name: `talao_finish_${shape}${answered ? '_answered' : ''}`, text, values };
}

/** True when this call moved the invoice out of `processing`. */
export async function finishWithEvent(
  sql: SqlRunner, id: string, state: FinalState, event: NewOutboxEvent, answered?: { submissionId: string; answer: SubmissionAnswer },
): Promise<boolean> {
  const statement = finishStatement(id, state, event, answered);
  const rows = await sql.query<{ moved: number; answered?: number }>(statement.name, statement.text, statement.values);
  if (answered && rows[0]?.answered !== 1) throw new Error(`submission ${answered.submissionId} not found`);
  return rows[0]?.moved === 1;
}
