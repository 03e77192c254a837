import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { isUuid } from '../uuid.js';
import type { NewSubmission, SubmissionAnswer, SubmissionRecord } from './issuance-records.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';
import { SUBMISSION_COLUMNS } from './submission-columns.js';

// One statement (the next attempt number computed by the insert itself): this runs before every transmission.
// The unique (invoice, attempt) index turns a race between two workers into an error instead of a lost row.
const BEGIN = `INSERT INTO submissions (id, invoice_id, company_id, attempt, operation, endpoint, request_body, sent_at)
SELECT $1::uuid, $2::uuid, $3::uuid, COALESCE(MAX(attempt), 0) + 1, $4::varchar, $5::text, $6::text, $7::timestamptz
FROM submissions WHERE invoice_id = $2::uuid
RETURNING id::text AS id, attempt`;

// Many begins in one statement. Each invoice's next number is counted from the same snapshot, so two begins of one
// invoice in the batch are numbered apart by their position (row_number) instead of both taking MAX + 1; a race with
// another statement still meets the unique (invoice, attempt) index. RETURNING carries the ids, as PostgreSQL does not
// promise to return rows in the order of the array.
const BEGIN_MANY = `INSERT INTO submissions (id, invoice_id, company_id, attempt, operation, endpoint, request_body, sent_at)
SELECT r.id, r.invoice_id, r.company_id,
       COALESCE((SELECT MAX(attempt) FROM submissions s WHERE s.invoice_id = r.invoice_id), 0)
         + row_number() OVER (PARTITION BY r.invoice_id ORDER BY r.ord),
       r.operation, r.endpoint, r.request_body, r.sent_at
FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::text[], $6::text[], $7::timestamptz[])
       WITH ORDINALITY AS r(id, invoice_id, company_id, operation, endpoint, request_body, sent_at, ord)
RETURNING id::text AS id, attempt`;

// Without RETURNING: reading the row back would carry the stored request body too.
const ANSWER = `UPDATE submissions SET response_body = $2::text, http_status = $3::int, outcome = $4::varchar, status_code = $5::varchar,
       status_message = $6::text, answered_at = $7::timestamptz
WHERE id = $1::uuid
RETURNING 1 AS found`;

const BY_INVOICE = `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE invoice_id = $1::uuid ORDER BY attempt`;

/** A begin as the statements take it: its id and send time are decided by the caller. */
export interface SubmissionBeginRow extends NewSubmission {
  id: string;
  sentAt: Date;
}

async function insertSubmission(sql: SqlRunner, row: SubmissionBeginRow): Promise<number> {
  const rows = await sql.query<{ id: string; attempt: number }>('talao_submission_begin', BEGIN, [
    row.id,
    row.invoiceId,
    row.companyId,
    row.operation,
    row.endpoint,
    row.requestBody,
    row.sentAt,
  ]);
  if (!rows[0]) throw new Error('the submission was not inserted');
  return Number(rows[0].attempt);
}

/**
 * Inserts every row by one statement (StatementBatcher's runBatch) and answers each row's attempt number, in the
 * order of `rows`. A lone row takes the one-row statement.
 */
export async function insertSubmissions(sql: SqlRunner, rows: SubmissionBeginRow[]): Promise<number[]> {
  if (rows.length === 1) return [await insertSubmission(sql, rows[0]!)];
  const column = <K extends keyof SubmissionBeginRow>(key: K) => rows.map((row) => row[key]);
  const inserted = await sql.query<{ id: string; attempt: number }>('talao_submission_begin_many', BEGIN_MANY, [
    column('id'),
    column('invoiceId'),
    column('companyId'),
    column('operation'),
    column('endpoint'),
    column('requestBody'),
    column('sentAt'),
  ]);
  const attempts = new Map(inserted.map((row) => [row.id, Number(row.attempt)]));
  return rows.map((row) => {
    const attempt = attempts.get(row.id);
    if (attempt === undefined) throw new Error(`the submission ${row.id} was not inserted`);
    return attempt;
  });
}

/**
 * Every exchange with an authorizer for an invoice, byte for byte (invariant 3): `begin` stores the request before
 * it is sent, `answer` stores the response after (the answer that decides an invoice rides with its final state:
 * InvoicesRepository.finishWithEvent). Attempt numbers are per invoice, 1, 2, …
 * The issue job's statements run through `sql` (named prepared statements on a pg pool; default: this Prisma client).
 */
export class SubmissionsRepository {
  private readonly sql: SqlRunner;

  constructor(
    private readonly prisma: PrismaClient,
    sql?: SqlRunner,
  ) {
    this.sql = sql ?? prismaSqlRunner(prisma);
  }

  /**
   * Stored (committed) before it is sent: the caller transmits only after this resolves — batched on a coalescing
   * runner too, as a caller continues only once its batch's statement committed.
   */
  async begin(input: NewSubmission): Promise<SubmissionRecord> {
    const row: SubmissionBeginRow = { ...input, id: randomUUID(), sentAt: new Date() };
    const batcher = this.sql.batcher?.('talao_submission_begin_many', (rows: SubmissionBeginRow[]) => insertSubmissions(this.sql, rows));
    const attempt = batcher ? await batcher.run(row) : await insertSubmission(this.sql, row);
    return {
      ...input,
      id: row.id,
      attempt,
      sentAt: row.sentAt,
      responseBody: null,
      httpStatus: null,
      outcome: null,
      statusCode: null,
      statusMessage: null,
      answeredAt: null,
    };
  }

  async answer(id: string, answer: SubmissionAnswer): Promise<void> {
    const updated = await this.sql.query('talao_submission_answer', ANSWER, [
      id,
      answer.responseBody ?? null,
      answer.httpStatus ?? null,
      answer.outcome,
      answer.statusCode ?? null,
      answer.statusMessage ?? null,
      new Date(),
    ]);
    if (updated.length !== 1) throw new Error(`submission ${id} not found`);
  }

  async listByInvoice(invoiceId: string): Promise<SubmissionRecord[]> {
    if (!isUuid(invoiceId)) return [];
    return this.sql.query<SubmissionRecord>('talao_submissions_by_invoice', BY_INVOICE, [invoiceId]);
  }

  count(invoiceId: string): Promise<number> {
    return this.prisma.submission.count({ where: { invoiceId } });
  }
}
