// NF-e numbering invalidations (inutilização). Filing is one transaction under the sequence's row lock: the service's
// own records are checked (a number that reached the authorizer, a range already invalidated), then the range is
// stored `pending` and the sequence moved past it, so a number ahead of the sequence is never issued afterwards. The
// canceller stores each exchange before sending it and decides the range in one statement.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { isUuid } from '../uuid.js';
import {
  answerParameters,
  type AuthorizerDecision,
  type DecidedFields,
  decisionParameters,
  type EnvironmentName,
  requestParameters,
  type SubmissionAnswer,
} from './issuance-records.js';

/** Why the service refused a range on its own records, before sending anything (see InvalidationDecision). */
export type InvalidationRefusal = 'numbers_in_use';

export interface InvalidationRecord extends NewInvalidation, DecidedFields {
  id: string;
  refusedFor: InvalidationRefusal | null;
}

/** A range's decision; `refusedFor` when the service refused it itself (status `rejected`, no authorizer code). */
export type InvalidationDecision = AuthorizerDecision & { refusedFor?: InvalidationRefusal };

export interface NewInvalidation {
  companyId: string;
  environment: EnvironmentName;
  series: number;
  numberStart: number;
  numberEnd: number;
  reason: string;
}

/** A number of the range the service's own records refuse: an invoice that reached the authorizer (or may). */
export interface InvalidationConflict {
  number: number;
  invoiceId: string;
  status: string;
  /** An exchange of it was not refused before reaching the authorizer; false: still `processing` with nothing sent. */
  reached: boolean;
}

export type FileInvalidationResult =
  | { kind: 'filed'; invalidation: InvalidationRecord }
  /** Numbers that reached the authorizer (any submission that was not refused before reaching it), or in flight. */
  | { kind: 'conflict'; invoices: InvalidationConflict[] }
  /** Ranges already invalidated (or being) that overlap this one. */
  | { kind: 'overlap'; ranges: InvalidationRecord[] }
  /** The range starts beyond the next number: the numbers in between would be skipped without being invalidated. */
  | { kind: 'gap'; nextNumber: number };

const COLUMNS = `id::text AS id, company_id::text AS "companyId", environment::text AS environment, series,
  number_start::int AS "numberStart", number_end::int AS "numberEnd", reason, status, protocol, status_code AS "statusCode",
  status_message AS "statusMessage", refused_for AS "refusedFor", registered_at AS "registeredAt", created_at AS "createdAt"`;

// The invoices of a range whose number is taken: any that is not `failed`, and a failed one when an exchange of it may
// have reached the authorizer (anything but `unavailable`).
const NUMBERS_IN_USE = `SELECT i.number::int AS number, i.id::text AS "invoiceId", i.status::text AS status, r.reached
FROM invoices i
CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM submissions s WHERE s.invoice_id = i.id AND s.amendment_id IS NULL
                                   AND s.outcome IS DISTINCT FROM 'unavailable') AS reached) r
WHERE i.company_id = $1::uuid AND i.environment = $2::"Environment" AND i.document_type = 'nfe' AND i.series = $3::int
  AND i.number BETWEEN $4::bigint AND $5::bigint AND (i.status <> 'failed' OR r.reached)
ORDER BY i.number`;

const SEQUENCE_KEY = `company_id = $1::uuid AND environment = $2::"Environment" AND document_type = 'nfe' AND series = $3::int`;

// Prisma's defaults (2 s to get a connection, 5 s to finish) turned a filing on a saturated database into a 500; a
// filing holds the sequence's row lock only for its few statements, so waiting longer is safe.
const FILING_TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

export class InvalidationsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async file(input: NewInvalidation): Promise<FileInvalidationResult> {
    const key = [input.companyId, input.environment, input.series] as const;
    return this.prisma.$transaction(async (tx) => {
      // The sequence's row lock orders this against number reservations (which take the same row).
      await tx.$executeRawUnsafe(
        `INSERT INTO number_sequences (company_id, environment, document_type, series, next_number, updated_at)
         VALUES ($1::uuid, $2::"Environment", 'nfe', $3::int, 1, now()) ON CONFLICT DO NOTHING`,
        ...key,
      );
      const [sequence] = await tx.$queryRawUnsafe<Array<{ next: number }>>(
        `SELECT next_number::int AS next FROM number_sequences WHERE ${SEQUENCE_KEY} FOR UPDATE`,
        ...key,
      );
      const next = sequence?.next ?? 1;
      const invoices = await tx.$queryRawUnsafe<InvalidationConflict[]>(NUMBERS_IN_USE, ...key, input.numberStart, input.numberEnd);
      if (invoices.length > 0) return { kind: 'conflict', invoices };
      const ranges = await tx.$queryRawUnsafe<InvalidationRecord[]>(
        `SELECT ${COLUMNS} FROM invalidations
         WHERE company_id = $1::uuid AND environment = $2::"Environment" AND series = $3::int AND status <> 'rejected'
           AND number_start <= $5::bigint AND number_end >= $4::bigint ORDER BY number_start`,
        ...key,
        input.numberStart,
        input.numberEnd,
      );
      if (ranges.length > 0) return { kind: 'overlap', ranges };
      if (input.numberStart > next) return { kind: 'gap', nextNumber: next };
      await tx.$executeRawUnsafe(
        `UPDATE number_sequences SET next_number = GREATEST(next_number, $4::bigint + 1), updated_at = now() WHERE ${SEQUENCE_KEY}`,
        ...key,
        input.numberEnd,
      );
      const [invalidation] = await tx.$queryRawUnsafe<InvalidationRecord[]>(
        `INSERT INTO invalidations (id, company_id, environment, series, number_start, number_end, reason, updated_at)
         VALUES ($4::uuid, $1::uuid, $2::"Environment", $3::int, $5::bigint, $6::bigint, $7::text, now()) RETURNING ${COLUMNS}`,
        ...key,
        randomUUID(),
        input.numberStart,
        input.numberEnd,
        input.reason,
      );
      if (!invalidation) throw new Error('the invalidation was not inserted');
      return { kind: 'filed', invalidation };
    }, FILING_TRANSACTION);
  }

  /**
   * The invoices holding numbers of a filed range (see NUMBERS_IN_USE), read again by the invalidate job before its
   * first transmission: filing cannot see a number reserved and not yet inserted (the reservation commits on its own).
   */
  numbersInUse(invalidation: Pick<InvalidationRecord, 'companyId' | 'environment' | 'series' | 'numberStart' | 'numberEnd'>) {
    return this.prisma.$queryRawUnsafe<InvalidationConflict[]>(
      NUMBERS_IN_USE,
      invalidation.companyId,
      invalidation.environment,
      invalidation.series,
      invalidation.numberStart,
      invalidation.numberEnd,
    );
  }

  async findById(id: string): Promise<InvalidationRecord | null> {
    if (!isUuid(id)) return null;
    const rows = await this.prisma.$queryRawUnsafe<InvalidationRecord[]>(`SELECT ${COLUMNS} FROM invalidations WHERE id = $1::uuid`, id);
    return rows[0] ?? null;
  }

  /** The company's ranges in the environment, newest first, one page. */
  async list(query: {
    companyId: string;
    environment: EnvironmentName;
    offset: number;
    limit: number;
  }): Promise<{ total: number; data: InvalidationRecord[] }> {
    const [count] = await this.prisma.$queryRawUnsafe<Array<{ total: number }>>(
      `SELECT count(*)::int AS total FROM invalidations WHERE company_id = $1::uuid AND environment = $2::"Environment"`,
      query.companyId,
      query.environment,
    );
    const data = await this.prisma.$queryRawUnsafe<InvalidationRecord[]>(
      `SELECT ${COLUMNS} FROM invalidations WHERE company_id = $1::uuid AND environment = $2::"Environment"
       ORDER BY created_at DESC, id LIMIT $3::int OFFSET $4::int`,
      query.companyId,
      query.environment,
      query.limit,
      query.offset,
    );
    return { total: count?.total ?? 0, data };
  }

  /** The ranges (any status) that cover an NF-e number of the company: an invoice's number invalidated after it failed. */
  covering(query: { companyId: string; environment: EnvironmentName; series: number; number: number }): Promise<InvalidationRecord[]> {
    return this.prisma.$queryRawUnsafe<InvalidationRecord[]>(
      `SELECT ${COLUMNS} FROM invalidations WHERE company_id = $1::uuid AND environment = $2::"Environment" AND series = $3::int
         AND number_start <= $4::bigint AND number_end >= $4::bigint ORDER BY created_at`,
      query.companyId,
      query.environment,
      query.series,
      query.number,
    );
  }

  transmissions(invalidationId: string): Promise<Array<{ operation: string; requestBody: string; outcome: string | null }>> {
    return this.prisma.$queryRawUnsafe(
      `SELECT operation, request_body AS "requestBody", outcome FROM invalidation_submissions WHERE invalidation_id = $1::uuid ORDER BY attempt`,
      invalidationId,
    );
  }

  /** Every exchange of the invalidation, as transmitted. */
  listSubmissions(invalidationId: string) {
    return this.prisma.invalidationSubmission.findMany({ where: { invalidationId }, orderBy: { attempt: 'asc' } });
  }

  /** Stored (committed) before it is sent. */
  async begin(invalidationId: string, call: { operation: string; endpoint: string; requestBody: string }): Promise<{ id: string }> {
    const rows = await this.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO invalidation_submissions (id, invalidation_id, attempt, operation, endpoint, request_body, sent_at)
       SELECT $1::uuid, $2::uuid, COALESCE(MAX(attempt), 0) + 1, $3::varchar, $4::text, $5::text, now()
       FROM invalidation_submissions WHERE invalidation_id = $2::uuid
       RETURNING id::text AS id`,
      ...requestParameters(invalidationId, call),
    );
    if (!rows[0]) throw new Error(`invalidation ${invalidationId}: the submission was not inserted`);
    return rows[0];
  }

  async answer(submissionId: string, answer: SubmissionAnswer): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE invalidation_submissions SET response_body = $2::text, http_status = $3::int, outcome = $4::varchar,
         status_code = $5::varchar, status_message = $6::text, answered_at = now() WHERE id = $1::uuid`,
      submissionId,
      ...answerParameters(answer),
    );
  }

  /** Decides the range once (from `pending`), storing the deciding answer in the same statement; true when it moved. */
  async finish(
    id: string,
    decision: InvalidationDecision,
    answered?: { submissionId: string; answer: SubmissionAnswer },
  ): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<Array<{ moved: number }>>(
      `WITH answered AS (
         UPDATE invalidation_submissions SET response_body = $7::text, http_status = $8::int, outcome = $9::varchar,
                status_code = $10::varchar, status_message = $11::text, answered_at = now()
         WHERE id = $6::uuid RETURNING id
       ), moved AS (
         UPDATE invalidations SET status = $2::varchar, protocol = $3::varchar, status_code = $4::varchar, status_message = $5::text,
                refused_for = $12::varchar, registered_at = CASE WHEN $2::varchar = 'registered' THEN now() END, updated_at = now()
         WHERE id = $1::uuid AND status = 'pending' RETURNING id
       )
       SELECT (SELECT count(*) FROM moved)::int AS moved`,
      ...decisionParameters(id, decision, answered),
      decision.refusedFor ?? null,
    );
    return rows[0]?.moved === 1;
  }
}
