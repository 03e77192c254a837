// The two statements of every webhook attempt (the claim before sending, the record after), each in a one-delivery
// and a many-delivery form. The dispatcher runs dozens of attempts at once, so on a coalescing runner (the dispatcher's
// pg pool) the calls made together leave in one statement and one commit: per attempt, a single-row UPDATE with its
// own commit cost far more than its row (bench:webhooks). What a caller may assume after `await` is unchanged: its row
// was claimed or recorded, committed, exactly as with its own statement (StatementBatcher).
import type { SqlRunner } from './sql-runner.js';

export interface ClaimCall {
  deliveryId: string;
  attempt: number;
  leaseMs: number;
}

export interface ClaimRow {
  id: string;
  endpoint_id: string;
  event: string;
  body: string;
  url: string;
  secret_encrypted: Uint8Array;
  attempts: number;
}

/** An attempt's line of the delivery log. */
export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  result: string;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

/** The attempt's log line and the delivery's state after it. */
export interface RecordCall extends AttemptRecord {
  deliveryId: string;
  attempt: number;
  status: string;
  nextAttemptAt: Date | null;
}

// Takes attempt $2 only when $2 - 1 attempts were made, the delivery is pending and its endpoint not deleted.
const CLAIM = `UPDATE webhook_deliveries d
SET attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + $3::int * interval '1 millisecond', updated_at = now()
FROM webhook_endpoints e
WHERE d.id = $1::uuid AND d.status = 'pending' AND d.attempts = $2::int - 1 AND e.id = d.endpoint_id AND e.deleted_at IS NULL
RETURNING d.id, d.endpoint_id, d.event, d.body, e.url, e.secret_encrypted, d.attempts`;

const CLAIM_MANY = `UPDATE webhook_deliveries d
SET attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + c.lease_ms * interval '1 millisecond', updated_at = now()
FROM unnest($1::uuid[], $2::int[], $3::int[]) WITH ORDINALITY AS c(id, attempt, lease_ms, ord), webhook_endpoints e
WHERE d.id = c.id AND d.status = 'pending' AND d.attempts = c.attempt - 1 AND e.id = d.endpoint_id AND e.deleted_at IS NULL
RETURNING c.ord::int AS claim_ord, d.id, d.endpoint_id, d.event, d.body, e.url, e.secret_encrypted, d.attempts`;

// The attempt's log line and the delivery's new state in one statement; nothing when the attempt is no longer current.
const RECORD = `WITH logged AS (
  INSERT INTO webhook_delivery_attempts (delivery_id, number, started_at, duration_ms, result, http_status, error, response_excerpt)
  VALUES ($1::uuid, $2::int, $3::timestamptz, $4::int, $5::varchar, $6::int, $7::text, $8::text)
  ON CONFLICT DO NOTHING
)
UPDATE webhook_deliveries SET status = $9::varchar, next_attempt_at = $10::timestamptz,
  delivered_at = CASE WHEN $9::varchar = 'delivered' THEN now() ELSE delivered_at END,
  given_up_at = CASE WHEN $9::varchar = 'given_up' THEN now() ELSE given_up_at END, updated_at = now()
WHERE id = $1::uuid AND attempts = $2::int AND status = 'pending'`;

const RECORD_MANY = `WITH r AS (
  SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::varchar[], $6::int[], $7::text[], $8::text[],
    $9::varchar[], $10::timestamptz[])
    AS r(delivery_id, number, started_at, duration_ms, result, http_status, error, response_excerpt, status, next_attempt_at)
), logged AS (
  INSERT INTO webhook_delivery_attempts (delivery_id, number, started_at, duration_ms, result, http_status, error, response_excerpt)
  SELECT delivery_id, number, started_at, duration_ms, result, http_status, error, response_excerpt FROM r
  ON CONFLICT DO NOTHING
)
UPDATE webhook_deliveries d SET status = r.status, next_attempt_at = r.next_attempt_at,
  delivered_at = CASE WHEN r.status = 'delivered' THEN now() ELSE d.delivered_at END,
  given_up_at = CASE WHEN r.status = 'given_up' THEN now() ELSE d.given_up_at END, updated_at = now()
FROM r
WHERE d.id = r.delivery_id AND d.attempts = r.number AND d.status = 'pending'`;

/** Claims one attempt: its row, or null when there is nothing to take. */
export async function claimAttempt(sql: SqlRunner, call: ClaimCall): Promise<ClaimRow | null> {
  const batcher = sql.batcher?.('talao_webhook_claim_many', (calls: ClaimCall[]) => claimAttempts(sql, calls));
  if (batcher) return batcher.run(call);
  const rows = await sql.query<ClaimRow>('talao_webhook_claim', CLAIM, [call.deliveryId, call.attempt, call.leaseMs]);
  return rows[0] ?? null;
}

/** Records one attempt's outcome and the delivery's next state. */
export async function recordAttempt(sql: SqlRunner, call: RecordCall): Promise<void> {
  const batcher = sql.batcher?.('talao_webhook_record_many', (calls: RecordCall[]) => recordAttempts(sql, calls));
  if (batcher) return batcher.run(call);
  await recordOne(sql, call);
}

/**
 * Several deliveries' claims (StatementBatcher's runBatch): one answer per call, in order. Two calls for one delivery
 * (a re-driven job beside the original) run one at a time, so exactly one of them can take the attempt.
 */
async function claimAttempts(sql: SqlRunner, calls: ClaimCall[]): Promise<Array<ClaimRow | null>> {
  if (calls.length === 1 || !distinct(calls)) {
    const answers: Array<ClaimRow | null> = [];
    for (const call of calls)
      answers.push((await sql.query<ClaimRow>('talao_webhook_claim', CLAIM, [call.deliveryId, call.attempt, call.leaseMs]))[0] ?? null);
    return answers;
  }
  const rows = await sql.query<ClaimRow & { claim_ord: number }>('talao_webhook_claim_many', CLAIM_MANY, [
    calls.map((c) => c.deliveryId),
    calls.map((c) => c.attempt),
    calls.map((c) => c.leaseMs),
  ]);
  const answers: Array<ClaimRow | null> = calls.map(() => null);
  for (const { claim_ord: ord, ...row } of rows) answers[ord - 1] = row;
  return answers;
}

async function recordAttempts(sql: SqlRunner, calls: RecordCall[]): Promise<void[]> {
  if (calls.length === 1 || !distinct(calls)) {
    for (const call of calls) await recordOne(sql, call);
    return calls.map(() => undefined);
  }
  const column = <T>(of: (c: RecordCall) => T) => calls.map(of);
  await sql.query('talao_webhook_record_many', RECORD_MANY, [
    column((c) => c.deliveryId),
    column((c) => c.attempt),
    column((c) => c.startedAt),
    column((c) => Math.round(c.durationMs)),
    column((c) => c.result),
    column((c) => c.httpStatus),
    column((c) => c.error),
    column((c) => c.responseExcerpt),
    column((c) => c.status),
    column((c) => c.nextAttemptAt),
  ]);
  return calls.map(() => undefined);
}

async function recordOne(sql: SqlRunner, call: RecordCall): Promise<void> {
  await sql.query('talao_webhook_record', RECORD, [
    call.deliveryId,
    call.attempt,
    call.startedAt,
    Math.round(call.durationMs),
    call.result,
    call.httpStatus,
    call.error,
    call.responseExcerpt,
    call.status,
    call.nextAttemptAt,
  ]);
}

const distinct = (calls: ReadonlyArray<{ deliveryId: string }>) => new Set(calls.map((c) => c.deliveryId)).size === calls.length;
