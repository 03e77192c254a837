// The one transition out of `processing`: the invoice's final state, the outbox event that reports it, and what rides
// along — the authorizer's answer that decided it, a production credit. One SQL statement (a data-modifying CTE) is
// atomic like a transaction (invariant 2: all or nothing) and costs one round trip instead of a transaction's many.
// The text depends only on which fields the final state sets and what rides along, so each shape is one named
// prepared statement on a pg pool: parsed and planned once per connection. On a coalescing runner
// (coalescingSqlRunner) concurrent calls share one multi-row statement, FINISH_MANY, whose single text fits every mix.
import { randomUUID } from 'node:crypto';
import type { FinalState, FinishOptions, NewOutboxEvent, SubmissionAnswer } from './issuance-records.js';
import type { SqlRunner } from './sql-runner.js';

/** The optional columns of the final transition: a field left undefined keeps its value, null clears it. */
const OPTIONAL_FIELDS = [
  ['accessKey', 'access_key', 'varchar'],
  ['protocol', 'protocol', 'varchar'],
  ['statusCode', 'status_code', 'varchar'],
  ['statusMessage', 'status_message', 'text'],
  ['authorizedXml', 'authorized_xml', 'text'],
  ['issuedAt', 'issued_at', 'timestamptz'],
  ['invalidatedById', 'invalidated_by_id', 'uuid'],
] as const satisfies ReadonlyArray<readonly [keyof FinalState, string, string]>;

/** One finish as the statements take it: the ids of the rows it adds and the answer's time are decided by the caller. */
interface FinishCall {
  invoiceId: string;
  state: FinalState;
  event: NewOutboxEvent;
  eventId: string;
  answered?: { submissionId: string; answer: SubmissionAnswer; answeredAt: Date };
  charge?: NonNullable<FinishOptions['charge']> & { usageId: string };
}

/** A call's row: did it move the invoice, did it find its submission (the caller's error when it did not). */
type FinishOutcome = { moved: boolean; answered: boolean } | { failed: unknown };

function finishCall(invoiceId: string, state: FinalState, event: NewOutboxEvent, options: FinishOptions): FinishCall {
  return {
    invoiceId,
    state,
    event,
    eventId: randomUUID(),
    ...(options.answered ? { answered: { ...options.answered, answeredAt: new Date() } } : {}),
    ...(options.charge ? { charge: { ...options.charge, usageId: randomUUID() } } : {}),
  };
}

/** True when the call moved the invoice; its failure, or a submission that does not exist, is thrown. */
function movedBy(call: FinishCall, outcome: FinishOutcome): boolean {
  if ('failed' in outcome) throw outcome.failed;
  if (call.answered && !outcome.answered) throw new Error(`submission ${call.answered.submissionId} not found`);
  return outcome.moved;
}

function shapeOf(state: FinalState): number {
  return OPTIONAL_FIELDS.reduce((shape, [field], bit) => (state[field] === undefined ? shape : shape | (1 << bit)), 0);
}

interface Statement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Moves the invoice to its final state only from `processing`, and appends the event (and charges the credit) only
 * when this statement moved it: a second finisher changes nothing and appends nothing. A data-modifying CTE runs
 * whether or not the invoice moves, so the answer is kept even when another run finished the invoice.
 */
function finishStatement({ invoiceId: id, state, event, eventId, answered, charge }: FinishCall): Statement {
  const values: unknown[] = [];
  const param = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
  const invoiceId = param(id, 'uuid');
  const set = [`status = ${param(state.status, '"InvoiceStatus"')}`, 'updated_at = now()'];
  OPTIONAL_FIELDS.forEach(([field, column, type]) => {
    if (state[field] !== undefined) set.push(`${column} = ${param(state[field], type)}`);
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
  const company = param(event.companyId, 'uuid');
  const environment = param(event.environment, '"Environment"');
  const eventValues = [
    param(eventId, 'uuid'),
    company,
    environment,
    param(event.type, 'varchar'),
    param(event.aggregateId, 'uuid'),
    param(JSON.stringify(event.payload), 'jsonb'),
    param(event.traceParent ?? null, 'varchar'),
  ];
  const chargedCte = charge
    ? `, charged AS (
      INSERT INTO usage_entries (id, company_id, environment, invoice_id, document_type, period, unit_price)
      SELECT ${[param(charge.usageId, 'uuid'), company, environment, invoiceId, param(charge.documentType, '"DocumentType"'), param(charge.period, 'text'), param(charge.unitPrice ?? null, 'numeric')].join(', ')}
      FROM moved
      ON CONFLICT (invoice_id) DO NOTHING
      RETURNING id
    )`
    : '';
  const text = `WITH ${answeredCte}moved AS (
      UPDATE invoices SET ${set.join(', ')}
      WHERE id = ${invoiceId} AND status = 'processing'
      RETURNING id
    ), appended AS (
      INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload, trace_parent)
      SELECT ${eventValues.join(', ')}
      FROM moved
      RETURNING id
    )${chargedCte}
    SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM appended)::int AS appended${
      answered ? ', (SELECT count(*) FROM answered)::int AS answered' : ''
    }`;
  return { name: `talao_finish_${shapeOf(state)}${answered ? '_answered' : ''}${charge ? '_charged' : ''}`, text, values };
}

async function finishOne(sql: SqlRunner, call: FinishCall): Promise<FinishOutcome> {
  const statement = finishStatement(call);
  const rows = await sql.query<{ moved: number; answered?: number }>(statement.name, statement.text, statement.values);
  return { moved: rows[0]?.moved === 1, answered: rows[0]?.answered === 1 };
}

// Many finishes in one statement, one text for every mix of calls. Each call is one row of parallel arrays (one
// array parameter per column below, unnested together); a row says by its own bits which optional columns it sets
// (the one-row statement's shape), so "undefined keeps the value, null clears it" holds row by row; a row without an
// answer or a charge has null ids there and touches no submission or ledger row. Every result carries the row's
// position in the arrays (ord), which is how it finds its caller.
const ROW_COLUMNS: ReadonlyArray<{ name: string; type: string; of: (call: FinishCall) => unknown }> = [
  { name: 'invoice_id', type: 'uuid', of: (c) => c.invoiceId },
  { name: 'status', type: '"InvoiceStatus"', of: (c) => c.state.status },
  { name: 'shape', type: 'int', of: (c) => shapeOf(c.state) },
  ...OPTIONAL_FIELDS.map(([field, column, type]) => ({ name: column, type, of: (c: FinishCall) => c.state[field] ?? null })),
  { name: 'submission_id', type: 'uuid', of: (c) => c.answered?.submissionId ?? null },
  { name: 'response_body', type: 'text', of: (c) => c.answered?.answer.responseBody ?? null },
  { name: 'http_status', type: 'int', of: (c) => c.answered?.answer.httpStatus ?? null },
  { name: 'outcome', type: 'varchar', of: (c) => c.answered?.answer.outcome ?? null },
  { name: 'answer_status_code', type: 'varchar', of: (c) => c.answered?.answer.statusCode ?? null },
  { name: 'answer_status_message', type: 'text', of: (c) => c.answered?.answer.statusMessage ?? null },
  { name: 'answered_at', type: 'timestamptz', of: (c) => c.answered?.answeredAt ?? null },
  { name: 'event_id', type: 'uuid', of: (c) => c.eventId },
  { name: 'event_company_id', type: 'uuid', of: (c) => c.event.companyId },
  { name: 'event_environment', type: '"Environment"', of: (c) => c.event.environment },
  { name: 'event_type', type: 'varchar', of: (c) => c.event.type },
  { name: 'event_aggregate_id', type: 'uuid', of: (c) => c.event.aggregateId },
  { name: 'event_payload', type: 'jsonb', of: (c) => JSON.stringify(c.event.payload) },
  { name: 'event_trace_parent', type: 'varchar', of: (c) => c.event.traceParent ?? null },
  { name: 'usage_id', type: 'uuid', of: (c) => c.charge?.usageId ?? null },
  { name: 'usage_document_type', type: '"DocumentType"', of: (c) => c.charge?.documentType ?? null },
  { name: 'usage_period', type: 'text', of: (c) => c.charge?.period ?? null },
  { name: 'usage_unit_price', type: 'numeric', of: (c) => c.charge?.unitPrice ?? null },
];

const OPTIONAL_SETS = OPTIONAL_FIELDS.map(
  ([, column], bit) => `${column} = CASE WHEN r.shape & ${1 << bit} <> 0 THEN r.${column} ELSE i.${column} END`,
);
const FINISH_MANY = `WITH r AS (
  SELECT * FROM unnest(${ROW_COLUMNS.map((column, n) => `$${n + 1}::${column.type}[]`).join(', ')})
    WITH ORDINALITY AS r(${ROW_COLUMNS.map((column) => column.name).join(', ')}, ord)
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
  INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload, trace_parent)
  SELECT r.event_id, r.event_company_id, r.event_environment, r.event_type, r.event_aggregate_id, r.event_payload, r.event_trace_parent
  FROM moved JOIN r ON r.ord = moved.ord
  RETURNING id
), charged AS (
  INSERT INTO usage_entries (id, company_id, environment, invoice_id, document_type, period, unit_price)
  SELECT r.usage_id, r.event_company_id, r.event_environment, r.invoice_id, r.usage_document_type, r.usage_period, r.usage_unit_price
  FROM moved JOIN r ON r.ord = moved.ord
  WHERE r.usage_id IS NOT NULL
  ON CONFLICT (invoice_id) DO NOTHING
  RETURNING id
)
SELECT r.ord::int AS ord, EXISTS (SELECT 1 FROM moved WHERE moved.ord = r.ord) AS moved,
       EXISTS (SELECT 1 FROM answered WHERE answered.ord = r.ord) AS answered
FROM r`;

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
    const batch = firstIndexes.map((index) => calls[index]!);
    const values = ROW_COLUMNS.map((column) => batch.map(column.of));
    const rows = await sql.query<{ ord: number; moved: boolean; answered: boolean }>('talao_finish_many', FINISH_MANY, values);
    for (const row of rows) outcomes[firstIndexes[row.ord - 1]!] = { moved: row.moved, answered: row.answered };
  }
  for (const index of later) {
    outcomes[index] = await finishOne(sql, calls[index]!).catch((error: unknown) => ({ failed: error }));
  }
  return outcomes.map((outcome) => outcome ?? { failed: new Error('the batched finish answered no row for this call') });
}

/** True when this call moved the invoice out of `processing`. On a coalescing runner, run together with concurrent calls. */
export async function finishWithEvent(
  sql: SqlRunner,
  id: string,
  state: FinalState,
  event: NewOutboxEvent,
  options: FinishOptions = {},
): Promise<boolean> {
  const call = finishCall(id, state, event, options);
  const batcher = sql.batcher?.('talao_finish_many', (calls: FinishCall[]) => finishManyWithEvents(sql, calls));
  return movedBy(call, batcher ? await batcher.run(call) : await finishOne(sql, call));
}
