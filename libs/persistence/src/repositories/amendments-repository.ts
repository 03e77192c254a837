// Amendments: events filed on an issued document (cancellation, CC-e). The row is created `pending` by the gateway,
// the canceller stores each exchange of its event in `submissions` (amendment_id set, so the invoice's history shows
// it) before sending, and one statement decides it: the amendment's state, the invoice's (a registered cancellation),
// the outbox event and the deciding answer — the event only when that statement moved the amendment (invariant 2).
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';
import {
  type AmendableInvoice,
  type AmendmentRecord,
  type AmendJobSnapshot,
  amendmentColumns,
  selectAmendableInvoice,
  selectAmendJobSnapshot,
} from './amendment-reads.js';
import { isUuid } from '../uuid.js';
import {
  answerParameters,
  type AuthorizerDecision,
  decisionParameters,
  type EnvironmentName,
  type NewOutboxEvent,
  requestParameters,
  type SubmissionAnswer,
} from './issuance-records.js';

export type { AmendmentKind, AmendmentRecord, AmendmentStatus, AmendmentTransmission } from './amendment-reads.js';

export type NewAmendment = Pick<AmendmentRecord, 'companyId' | 'environment' | 'invoiceId' | 'kind' | 'sequence' | 'text'>;

/** How the authorizer decided an amendment. */
export type AmendmentDecision = AuthorizerDecision;

const COLUMNS = amendmentColumns('amendments');

// The attempt number is the invoice's next one: an invoice's exchanges (authorization and events) are one history.
const BEGIN = `INSERT INTO submissions (id, invoice_id, company_id, amendment_id, attempt, operation, endpoint, request_body, sent_at)
SELECT $1::uuid, a.invoice_id, a.company_id, a.id,
       COALESCE((SELECT MAX(attempt) FROM submissions s WHERE s.invoice_id = a.invoice_id), 0) + 1,
       $3::varchar, $4::text, $5::text, now()
FROM amendments a WHERE a.id = $2::uuid
RETURNING id::text AS id`;

const ANSWER = `UPDATE submissions SET response_body = $2::text, http_status = $3::int, outcome = $4::varchar, status_code = $5::varchar,
       status_message = $6::text, answered_at = now()
WHERE id = $1::uuid RETURNING 1 AS found`;

/**
 * The decision: the amendment leaves `pending` only once; a registered cancellation moves the invoice from `issued`
 * to `cancelled`; the outbox event is appended only when the amendment moved (a second finisher changes nothing).
 * The answer is stored whether or not anything moved.
 */
const FINISH = `WITH answered AS (
  UPDATE submissions SET response_body = $7::text, http_status = $8::int, outcome = $9::varchar, status_code = $10::varchar,
         status_message = $11::text, answered_at = now()
  WHERE id = $6::uuid
  RETURNING id
), moved AS (
  UPDATE amendments SET status = $2::varchar, protocol = $3::varchar, status_code = $4::varchar, status_message = $5::text,
         registered_at = CASE WHEN $2::varchar = 'registered' THEN now() END, updated_at = now()
  WHERE id = $1::uuid AND status = 'pending'
  RETURNING id, invoice_id, kind
), cancelled AS (
  UPDATE invoices i SET status = 'cancelled', updated_at = now()
  FROM moved WHERE i.id = moved.invoice_id AND moved.kind = 'cancellation' AND $2::varchar = 'registered' AND i.status = 'issued'
  RETURNING i.id
), corrected AS (
  -- A registered correction letter is printed with the document: touching the invoice moves its PDF's version.
  UPDATE invoices i SET updated_at = now()
  FROM moved WHERE i.id = moved.invoice_id AND moved.kind = 'correction' AND $2::varchar = 'registered'
  RETURNING i.id
), appended AS (
  INSERT INTO outbox_events (id, company_id, environment, type, aggregate_id, payload)
  SELECT $12::uuid, $13::uuid, $14::"Environment", $15::varchar, $16::uuid, $17::jsonb
  FROM moved WHERE $15::varchar IS NOT NULL
  RETURNING id
)
SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM answered)::int AS answered`;

export class AmendmentsRepository {
  private readonly sql: SqlRunner;

  /**
   * `sql`: the pool the canceller's and the gateway's statements run on as named prepared statements (createDatabase
   * passes its own); without it, through Prisma.
   */
  constructor(prisma: PrismaClient, sql?: SqlRunner) {
    this.sql = sql ?? prismaSqlRunner(prisma);
  }

  /** Inserts the amendment, or answers the one already filed under the same invoice, kind and sequence. */
  async create(input: NewAmendment): Promise<{ amendment: AmendmentRecord; created: boolean }> {
    const rows = await this.sql.query<AmendmentRecord>(
      'talao_amendment_insert',
      `INSERT INTO amendments (id, company_id, environment, invoice_id, kind, sequence, text, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::uuid, $5::varchar, $6::int, $7::text, now())
       ON CONFLICT (invoice_id, kind, sequence) DO NOTHING
       RETURNING ${COLUMNS}`,
      [randomUUID(), input.companyId, input.environment, input.invoiceId, input.kind, input.sequence, input.text],
    );
    if (rows[0]) return { amendment: rows[0], created: true };
    const existing = await this.sql.query<AmendmentRecord>(
      'talao_amendment_existing',
      `SELECT ${COLUMNS} FROM amendments WHERE invoice_id = $1::uuid AND kind = $2::varchar AND sequence = $3::int`,
      [input.invoiceId, input.kind, input.sequence],
    );
    if (!existing[0]) throw new Error('the amendment conflicted with a row that is gone');
    return { amendment: existing[0], created: false };
  }

  async findById(id: string): Promise<AmendmentRecord | null> {
    if (!isUuid(id)) return null;
    const rows = await this.sql.query<AmendmentRecord>('talao_amendment_by_id', `SELECT ${COLUMNS} FROM amendments WHERE id = $1::uuid`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /** The invoice's amendments, oldest first. */
  listForInvoice(invoiceId: string): Promise<AmendmentRecord[]> {
    return this.sql.query<AmendmentRecord>(
      'talao_amendments_of_invoice',
      `SELECT ${COLUMNS} FROM amendments WHERE invoice_id = $1::uuid ORDER BY kind, sequence`,
      [invoiceId],
    );
  }

  /**
   * The company's invoice in the credential's environment by access key (the newest with it) or id, with its company's
   * state and its amendments: the request side's one read (amendment-reads.ts).
   */
  findAmendable(
    scope: { companyId: string; environment: EnvironmentName },
    key: { accessKey: string } | { id: string },
  ): Promise<AmendableInvoice | null> {
    if (!isUuid(scope.companyId) || ('id' in key && !isUuid(key.id))) return Promise.resolve(null);
    return selectAmendableInvoice(this.sql, scope, key);
  }

  /** The amend job's one read: the amendment with everything its event needs (amendment-reads.ts); null when none. */
  loadForAmend(id: string): Promise<AmendJobSnapshot | null> {
    return isUuid(id) ? selectAmendJobSnapshot(this.sql, id) : Promise.resolve(null);
  }

  /** Stores an exchange's exact request (committed when this resolves: only then may it leave). */
  async begin(amendmentId: string, call: { operation: string; endpoint: string; requestBody: string }): Promise<{ id: string }> {
    const rows = await this.sql.query<{ id: string }>('talao_amendment_begin', BEGIN, requestParameters(amendmentId, call));
    if (!rows[0]) throw new Error(`amendment ${amendmentId} not found`);
    return rows[0];
  }

  async answer(submissionId: string, answer: SubmissionAnswer): Promise<void> {
    const rows = await this.sql.query<unknown>('talao_amendment_answer', ANSWER, [submissionId, ...answerParameters(answer)]);
    if (rows.length !== 1) throw new Error(`submission ${submissionId} not found`);
  }

  /**
   * Decides the amendment (see FINISH); `event` is appended only when this call moved it. True when it moved.
   * `answered`: the deciding answer, stored by the same statement.
   */
  async finish(
    id: string,
    decision: AmendmentDecision,
    event: NewOutboxEvent | null,
    answered?: { submissionId: string; answer: SubmissionAnswer },
  ): Promise<boolean> {
    const rows = await this.sql.query<{ moved: number; answered: number }>('talao_amendment_finish', FINISH, [
      ...decisionParameters(id, decision, answered),
      randomUUID(),
      event?.companyId ?? null,
      event?.environment ?? null,
      event?.type ?? null,
      event?.aggregateId ?? null,
      event ? JSON.stringify(event.payload) : null,
    ]);
    if (answered && rows[0]?.answered !== 1) throw new Error(`submission ${answered.submissionId} not found`);
    return rows[0]?.moved === 1;
  }
}
