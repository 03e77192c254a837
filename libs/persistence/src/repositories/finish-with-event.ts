// The issuer's most frequent write: an invoice leaves `processing` and its outbox event is appended. As one SQL
// statement (a data-modifying CTE) it is atomic like a transaction (invariant 2: both or neither) and costs one round
// trip instead of four (BEGIN, UPDATE, INSERT, COMMIT) — the issue job's largest share of database time.
import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { EnvironmentName } from './issuance-records.js';
import type { FinalState } from './invoices-repository.js';
import type { SubmissionAnswer } from './submissions-repository.js';

export interface NewOutboxEvent {
  companyId: string;
  environment: EnvironmentName;
  type: string;
  aggregateId: string;
  payload: Record<string, unknown>;
}

/** The SET list of the final transition: a field left undefined keeps its value, null clears it (as `finish`). */
function assignments(state: FinalState): Prisma.Sql {
  const set: Prisma.Sql[] = [Prisma.sql`status = ${state.status}::"InvoiceStatus"`, Prisma.sql`updated_at = now()`];
  if (state.accessKey !== undefined) set.push(Prisma.sql`access_key = ${state.accessKey}`);
  if (state.protocol !== undefined) set.push(Prisma.sql`protocol = ${state.protocol}`);
  if (state.statusCode !== undefined) set.push(Prisma.sql`status_code = ${state.statusCode}`);
  if (state.statusMessage !== undefined) set.push(Prisma.sql`status_message = ${state.statusMessage}`);
  if (state.authorizedXml !== undefined) set.push(Prisma.sql`authorized_xml = ${state.authorizedXml}`);
  if (state.issuedAt !== undefined) set.push(Prisma.sql`issued_at = ${state.issuedAt}::timestamptz`);
  return Prisma.join(set, ', ');
}

/** The authorizer's answer that decided the invoice, stored by the same statement (the submission row exists). */
function answerUpdate(answered: { submissionId: string; answer: SubmissionAnswer } | undefined): Prisma.Sql {
  if (!answered) return Prisma.empty;
  const { submissionId, answer } = answered;
  // A data-modifying CTE runs whether or not the invoice moves: the answer is kept even when another run finished it.
  return Prisma.sql`answered AS (
      UPDATE submissions SET response_body = ${answer.responseBody ?? null}, http_status = ${answer.httpStatus ?? null}::int,
             outcome = ${answer.outcome}, status_code = ${answer.statusCode ?? null}, status_message = ${answer.statusMessage ?? null},
             answered_at = ${new Date()}::timestamptz
      WHERE id = ${submissionId}::uuid
      RETURNING id
    ), `;
}

/**
 * Moves the invoice to its final state only from `processing`, and appends the event only when this statement moved
 * it (a second finisher changes nothing and appends nothing). With `answered`, the submission's answer is stored by
 * the same statement. True when this call moved the invoice.
 */
export async function finishWithEvent(
  prisma: PrismaClient, id: string, state: FinalState, event: NewOutboxEvent, answered?: { submissionId: string; answer: SubmissionAnswer },
): Promise<boolean> {
  const rows = await prisma.$queryRaw<Array<{ moved: number; answered: number }>>`
    WITH ${answerUpdate(answered)}moved AS (
      UPDATE invoices SET ${assignments(state)}
      WHERE id = ${id}::uuid AND status = 'processing'
      RETURNING id
    ), appended AS (
      INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload)
      SELECT ${randomUUID()}::uuid, ${event.companyId}::uuid, ${event.environment}::"Environment", ${event.type}, ${event.aggregateId}::uuid,
             ${JSON.stringify(event.payload)}::jsonb
      FROM moved
      RETURNING id
    )
    SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM appended)::int AS appended${
      answered ? Prisma.sql`, (SELECT count(*) FROM answered)::int AS answered` : Prisma.empty
    }`;
  if (answered && rows[0]?.answered !== 1) throw new Error(`submission ${answered.submissionId} not found`);
  return rows[0]?.moved === 1;
}
