import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { isUuid } from '../uuid.js';
import { finishWithEvent, type NewOutboxEvent } from './finish-with-event.js';
import type { FinalState } from './invoices-repository.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';

export interface SubmissionRecord {
  id: string;
  invoiceId: string;
  companyId: string;
  attempt: number;
  operation: string;
  endpoint: string;
  requestBody: string;
  responseBody: string | null;
  httpStatus: number | null;
  outcome: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  sentAt: Date;
  answeredAt: Date | null;
}

export interface SubmissionAnswer {
  responseBody?: string | null;
  httpStatus?: number | null;
  /** authorized | rejected | unavailable | unknown (consults: found | not-found). */
  outcome: string;
  statusCode?: string | null;
  statusMessage?: string | null;
}

// One statement (the next attempt number computed by the insert itself): this runs before every transmission.
// The unique (invoice, attempt) index turns a race between two workers into an error instead of a lost row.
const BEGIN = `INSERT INTO submissions (id, invoice_id, company_id, attempt, operation, endpoint, request_body, sent_at)
SELECT $1::uuid, $2::uuid, $3::uuid, COALESCE(MAX(attempt), 0) + 1, $4::varchar, $5::text, $6::text, $7::timestamptz
FROM submissions WHERE invoice_id = $2::uuid
RETURNING id::text AS id, attempt`;

// Without RETURNING: reading the row back would carry the stored request body too.
const ANSWER = `UPDATE submissions SET response_body = $2::text, http_status = $3::int, outcome = $4::varchar, status_code = $5::varchar,
       status_message = $6::text, answered_at = $7::timestamptz
WHERE id = $1::uuid
RETURNING 1 AS found`;

export const SUBMISSION_COLUMNS = `id::text AS id, invoice_id::text AS "invoiceId", company_id::text AS "companyId", attempt, operation, endpoint,
       request_body AS "requestBody", response_body AS "responseBody", http_status AS "httpStatus", outcome,
       status_code AS "statusCode", status_message AS "statusMessage", sent_at AS "sentAt", answered_at AS "answeredAt"`;

const BY_INVOICE = `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE invoice_id = $1::uuid ORDER BY attempt`;

/**
 * Every exchange with an authorizer for an invoice, byte for byte (invariant 3): `begin` stores the request before
 * it is sent, `answer` stores the response after. Attempt numbers are per invoice, 1, 2, …
 * The issue job's statements run through `sql` (named prepared statements on a pg pool; default: this Prisma client).
 */
export class SubmissionsRepository {
  private readonly sql: SqlRunner;

  constructor(private readonly prisma: PrismaClient, sql?: SqlRunner) {
    this.sql = sql ?? prismaSqlRunner(prisma);
  }

  async begin(input: { invoiceId: string; companyId: string; operation: string; endpoint: string; requestBody: string }): Promise<SubmissionRecord> {
    const sentAt = new Date();
    const rows = await this.sql.query<{ id: string; attempt: number }>('talao_submission_begin', BEGIN, [
      randomUUID(), input.invoiceId, input.companyId, input.operation, input.endpoint, input.requestBody, sentAt,
    ]);
    const row = rows[0];
    if (!row) throw new Error('the submission was not inserted');
    return {
      ...input, id: row.id, attempt: Number(row.attempt), sentAt,
      responseBody: null, httpStatus: null, outcome: null, statusCode: null, statusMessage: null, answeredAt: null,
    };
  }

  async answer(id: string, answer: SubmissionAnswer): Promise<void> {
    const updated = await this.sql.query('talao_submission_answer', ANSWER, [
      id, answer.responseBody ?? null, answer.httpStatus ?? null, answer.outcome, answer.statusCode ?? null, answer.statusMessage ?? null, new Date(),
    ]);
    if (updated.length !== 1) throw new Error(`submission ${id} not found`);
  }

  /**
   * The answer that decided an invoice, stored by the statement that moves the invoice out of `processing` and
   * appends its event (finish-with-event.ts): one round trip for the issuer's last two writes of a job.
   */
  answerAndFinish(pending: { submissionId: string; answer: SubmissionAnswer }, invoiceId: string, state: FinalState, event: NewOutboxEvent): Promise<boolean> {
    return finishWithEvent(this.sql, invoiceId, state, event, pending);
  }

  async listByInvoice(invoiceId: string): Promise<SubmissionRecord[]> {
    if (!isUuid(invoiceId)) return [];
    return this.sql.query<SubmissionRecord>('talao_submissions_by_invoice', BY_INVOICE, [invoiceId]);
  }

  count(invoiceId: string): Promise<number> {
    return this.prisma.submission.count({ where: { invoiceId } });
  }
}
