import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { isUuid } from '../uuid.js';
import { finishWithEvent, type NewOutboxEvent } from './finish-with-event.js';
import type { FinalState } from './invoices-repository.js';

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

/**
 * Every exchange with an authorizer for an invoice, byte for byte (invariant 3): `begin` stores the request before
 * it is sent, `answer` stores the response after. Attempt numbers are per invoice, 1, 2, …
 */
export class SubmissionsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async begin(input: { invoiceId: string; companyId: string; operation: string; endpoint: string; requestBody: string }): Promise<SubmissionRecord> {
    // One statement (the next attempt number computed by the insert itself): this runs before every transmission.
    // The unique (invoice, attempt) index turns a race between two workers into an error instead of a lost row.
    const sentAt = new Date();
    const rows = await this.prisma.$queryRaw<Array<{ id: string; attempt: number }>>`
      INSERT INTO submissions (id, invoice_id, company_id, attempt, operation, endpoint, request_body, sent_at)
      SELECT ${randomUUID()}::uuid, ${input.invoiceId}::uuid, ${input.companyId}::uuid, COALESCE(MAX(attempt), 0) + 1,
             ${input.operation}, ${input.endpoint}, ${input.requestBody}, ${sentAt}::timestamptz
      FROM submissions WHERE invoice_id = ${input.invoiceId}::uuid
      RETURNING id, attempt`;
    const row = rows[0];
    if (!row) throw new Error('the submission was not inserted');
    return {
      ...input, id: row.id, attempt: Number(row.attempt), sentAt,
      responseBody: null, httpStatus: null, outcome: null, statusCode: null, statusMessage: null, answeredAt: null,
    };
  }

  async answer(id: string, answer: SubmissionAnswer): Promise<void> {
    // Raw and without RETURNING: Prisma's update would read the whole row back, the stored request body included.
    const updated = await this.prisma.$executeRaw`
      UPDATE submissions SET response_body = ${answer.responseBody ?? null}, http_status = ${answer.httpStatus ?? null}::int,
             outcome = ${answer.outcome}, status_code = ${answer.statusCode ?? null}, status_message = ${answer.statusMessage ?? null},
             answered_at = ${new Date()}::timestamptz
      WHERE id = ${id}::uuid`;
    if (updated !== 1) throw new Error(`submission ${id} not found`);
  }

  /**
   * The answer that decided an invoice, stored by the statement that moves the invoice out of `processing` and
   * appends its event (finish-with-event.ts): one round trip for the issuer's last two writes of a job.
   */
  answerAndFinish(pending: { submissionId: string; answer: SubmissionAnswer }, invoiceId: string, state: FinalState, event: NewOutboxEvent): Promise<boolean> {
    return finishWithEvent(this.prisma, invoiceId, state, event, pending);
  }

  /** Raw: every issue job reads this before sending (usually to find nothing), so Prisma's planning is skipped. */
  async listByInvoice(invoiceId: string): Promise<SubmissionRecord[]> {
    if (!isUuid(invoiceId)) return [];
    return this.prisma.$queryRaw<SubmissionRecord[]>`
      SELECT id::text AS id, invoice_id::text AS "invoiceId", company_id::text AS "companyId", attempt, operation, endpoint,
             request_body AS "requestBody", response_body AS "responseBody", http_status AS "httpStatus", outcome,
             status_code AS "statusCode", status_message AS "statusMessage", sent_at AS "sentAt", answered_at AS "answeredAt"
      FROM submissions WHERE invoice_id = ${invoiceId}::uuid ORDER BY attempt`;
  }

  count(invoiceId: string): Promise<number> {
    return this.prisma.submission.count({ where: { invoiceId } });
  }
}
