// The issuer's most frequent write: an invoice leaves `processing` and its outbox event is appended. As one SQL
// statement (a data-modifying CTE) it is atomic like a transaction (invariant 2: both or neither) and costs one round
// trip instead of four (BEGIN, UPDATE, INSERT, COMMIT) — the issue job's largest share of database time.
// The text depends only on which fields the final state sets (and whether an answer rides along), so each shape is
// one named prepared statement on a pg pool: parsed and planned once per connection. On a coalescing runner
// (coalescingSqlRunner) concurrent calls share one multi-row statement, FINISH_MANY, whose single text fits every mix.
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

/** One finish as the statements take it: the event's id and the answer's time are decided by the caller. */
interface FinishCall {
  invoiceId: string;
  state: FinalState;
  event: NewOutboxEvent;
  eventId: string;
  answered?: { submissionId: string; answer: SubmissionAnswer; answeredAt: Date };
}

/** A call's row: did it move the invoice, did it find its submission (the caller's error when it did not). */
type FinishOutcome = { moved: boolean; answered: boolean } | { failed: unknown };

function finishCall(
  invoiceId: string, state: FinalState, event: NewOutboxEvent, answered?: { submissionId: string; answer: SubmissionAnswer },
): FinishCall {
  return { invoiceId, state, event, eventId: randomUUID(), ...(answered ? { answered: { ...answered, answeredAt: new Date() } } : {}) };
}

/** True when the call moved the invoice; its failure, or a submission that does not exist, is thrown (as before). */
function movedBy(call: FinishCall, outcome: FinishOutcome): boolean {
  if ('failed' in outcome) throw outcome.failed;
  if (call.answered && !outcome.answered) throw new Error(`submission ${call.answered.submissionId} not found`);
  return outcome.moved;
}

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
function finishStatement({ invoiceId: id, state, event, eventId, answered }: FinishCall): Statement {
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
    const { submissionId, answer, answeredAt } = answered;
    answeredCte = `answered AS (
      UPDATE submissions SET response_body = ${param(answer.responseBody ?? null, 'text')}, http_status = ${param(answer.httpStatus ?? null, 'int')},
             outcome = ${param(answer.outcome, 'varchar')}, status_code = ${param(answer.statusCode ?? null, 'varchar')},
             status_message = ${param(answer.statusMessage ?? null, 'text')}, answered_at = ${param(answeredAt, 'timestamptz')}
      WHERE id = ${param(submissionId, 'uuid')}
      RETURNING id
    ), `;
  }
  const eventValues = [
    param(eventId, 'uuid'), param(event.companyId, 'uuid'), param(event.environment, '"Environment"'), param(event.type, 'varchar'),
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

async function finishOne(sql: SqlRunner, call: FinishCall): Promise<FinishOutcome> {
  const statement = finishStatement(call);
  const rows = await sql.query<{ moved: number; answered?: number }>(statement.name, statement.text, statement.values);
  return { moved: rows[0]?.moved === 1, answered: rows[0]?.answered === 1 };
}

// Many finishes in one statement, one text for every mix of calls: each row says by its own bits which optional
// columns it sets (the one-row statement's shape), so "undefined keeps the value, null clears it" holds row by row; a
// row without an answer has a null submission id and updates no submission. Every result carries the row's position
// in the arrays (ord), which is how it finds its caller.
const OPTIONAL_SETS = OPTIONAL_FIELDS.map(([, column], bit) => `${column} = CASE WHEN r.shape & ${1 << bit} <> 0 THEN r.${column} ELSE i.${column} END`);
const FINISH_MANY = `WITH r AS (
  SELECT * FROM unnest($1::uuid[], $2::"InvoiceStatus"[], $3::int[], ${OPTIONAL_FIELDS.map(([, , type], n) => `$${n + 4}::${type}[]`).join(', ')},
                       $10::uuid[], $11::text[], $12::int[], $13::varchar[], $14::varchar[], $15::text[], $16::timestamptz[],
                       $17::uuid[], $18::uuid[], $19::"Environment"[], $20::varchar[], $21::uuid[], $22::jsonb[])
    WITH ORDINALITY AS r(invoice_id, status, shape, ${OPTIONAL_FIELDS.map(([, column]) => column).join(', ')},
                         submission_id, response_body, http_status, outcome, answer_status_code, answer_status_message, answered_at,
                         event_id, event_company_id, event_environment, event_type, event_aggregate_id, event_payload, ord)
), answered AS (
  UPDATE submissions s SET response_body = r.response_body, http_status = r.http_status, outcome = r.outcome,
         status_code = r.answer_status_code, status_message = r.answer_status_message, answered_at = r.answered_at
  FROM r WHERE s.id = r.submission_id
  RETURNING r.ord
), moved AS (
  UPDATE invoices i SET status = r.status, updated_at = now(), ${OPTIONAL_SETS.join(',\n    ')}
  FROM r WHERE i.id = r.invoice_id AND i.status = 'processing'
  RETURNING r.ord
), appended AS (
  INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload)
  SELECT r.event_id, r.event_company_id, r.event_environment, r.event_type, r.event_aggregate_id, r.event_payload
  FROM moved JOIN r ON r.ord = moved.ord
  RETURNING id
)
SELECT r.ord::int AS ord, EXISTS (SELECT 1 FROM moved WHERE moved.ord = r.ord) AS moved,
       EXISTS (SELECT 1 FROM answered WHERE answered.ord = r.ord) AS answered
FROM r`;

function finishManyValues(calls: FinishCall[]): unknown[] {
  const column = <T>(of: (call: FinishCall) => T) => calls.map(of);
  const shapeOf = (state: FinalState) => OPTIONAL_FIELDS.reduce((shape, [field], bit) => (state[field] === undefined ? shape : shape | (1 << bit)), 0);
  return [
    column((c) => c.invoiceId), column((c) => c.state.status), column((c) => shapeOf(c.state)),
    ...OPTIONAL_FIELDS.map(([field]) => column((c) => c.state[field] ?? null)),
    column((c) => c.answered?.submissionId ?? null), column((c) => c.answered?.answer.responseBody ?? null),
    column((c) => c.answered?.answer.httpStatus ?? null), column((c) => c.answered?.answer.outcome ?? null),
    column((c) => c.answered?.answer.statusCode ?? null), column((c) => c.answered?.answer.statusMessage ?? null),
    column((c) => c.answered?.answeredAt ?? null),
    column((c) => c.eventId), column((c) => c.event.companyId), column((c) => c.event.environment), column((c) => c.event.type),
    column((c) => c.event.aggregateId), column((c) => JSON.stringify(c.event.payload)),
  ];
}

/**
 * Runs the calls by one statement (StatementBatcher's runBatch) and answers one outcome per call, in their order.
 * An UPDATE … FROM that meets one invoice (or submission) through two rows applies only one of them, so a call that
 * shares its invoice or submission with an earlier call of the batch waits for that statement and runs alone
 * afterwards — as two separate finishes of one invoice would, the first moves it and the second finds it moved. Such a
 * call fails on its own (its outcome), since the statement before it has committed and must not be retried.
 */
async function finishManyWithEvents(sql: SqlRunner, calls: FinishCall[]): Promise<FinishOutcome[]> {
  if (calls.length === 1) return [await finishOne(sql, calls[0]!)];
  const seen = new Set<string>();
  const later = new Set<number>();
  calls.forEach((call, index) => {
    const keys = [`invoice ${call.invoiceId}`, ...(call.answered ? [`submission ${call.answered.submissionId}`] : [])];
    if (keys.some((key) => seen.has(key))) later.add(index);
    keys.forEach((key) => seen.add(key));
  });
  const firstIndexes = calls.flatMap((_, index) => (later.has(index) ? [] : [index]));
  const outcomes: Array<FinishOutcome | undefined> = calls.map(() => undefined);
  if (firstIndexes.length === 1) {
    outcomes[firstIndexes[0]!] = await finishOne(sql, calls[firstIndexes[0]!]!);
  } else {
    const rows = await sql.query<{ ord: number; moved: boolean; answered: boolean }>(
      'talao_finish_many', FINISH_MANY, finishManyValues(firstIndexes.map((index) => calls[index]!)),
    );
    for (const row of rows) outcomes[firstIndexes[row.ord - 1]!] = { moved: row.moved, answered: row.answered };
  }
  for (const index of later) {
    outcomes[index] = await finishOne(sql, calls[index]!).catch((error: unknown) => ({ failed: error }));
  }
  return outcomes.map((outcome) => outcome ?? { failed: new Error('the batched finish answered no row for this call') });
}

/** True when this call moved the invoice out of `processing`. On a coalescing runner, run together with concurrent calls. */
export async function finishWithEvent(
  sql: SqlRunner, id: string, state: FinalState, event: NewOutboxEvent, answered?: { submissionId: string; answer: SubmissionAnswer },
): Promise<boolean> {
  const call = finishCall(id, state, event, answered);
  const batcher = sql.batcher?.('talao_finish_many', (calls: FinishCall[]) => finishManyWithEvents(sql, calls));
  return movedBy(call, batcher ? await batcher.run(call) : await finishOne(sql, call));
}
