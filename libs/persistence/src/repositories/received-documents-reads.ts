// The reads of GET /received-invoices: PostgreSQL only (never the authorizer), scoped to the company and environment.
import type pg from 'pg';
import type { DocumentTypeName, EnvironmentName } from './issuance-records.js';

export interface ReceivedListQuery {
  companyId: string;
  environment: EnvironmentName;
  documentType?: DocumentTypeName;
  issuerTaxId?: string;
  /** Inclusive bounds on the issue date-time. */
  issuedFrom?: Date;
  issuedTo?: Date;
  form?: 'summary' | 'full';
  situation?: 'authorized' | 'denied' | 'cancelled';
  /**
   * Manifestation filters. The rules (deadlines, what counts) are the caller's (@talao/received-invoices/manifest);
   * this turns them into SQL: `conclusiveDeadline` is the deadline expression's parameters.
   */
  manifestation?: {
    now: Date;
    /** NF-e authorized from `cutover` on have `daysAfter` days for a conclusive event, earlier ones `daysBefore`. */
    conclusiveDeadline: { cutover: Date; daysAfter: number; daysBefore: number };
    /** The latest registered conclusive event's code, 'awareness' (210210 only), 'none', or 'deemed_confirmed'. */
    state?: 'none' | 'awareness' | 'deemed_confirmed' | { conclusive: string };
    /** NF-e still waiting for a conclusive event inside its deadline (true), or not (false). */
    awaitingConclusive?: boolean;
    /** Conclusive deadline before this instant (only NF-e still awaiting a conclusive event). */
    deadlineBefore?: Date;
  };
  page: number;
  pageSize: number;
}

export interface ReceivedEventRecord {
  eventType: string;
  sequence: number;
  description: string | null;
  authorTaxId: string | null;
  occurredAt: Date | null;
  protocol: string | null;
}

export interface ReceivedManifestationRecord {
  id: string;
  eventType: string;
  sequence: number;
  justification: string | null;
  status: string;
  protocol: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  registeredAt: Date | null;
  createdAt: Date;
}

/** What a received document says of itself, as collected (the summary's or the full document's fields). */
export interface ReceivedDocumentFields {
  accessKey: string;
  issuerTaxId: string;
  issuerName: string | null;
  issuedAt: Date | null;
  authorizedAt: Date | null;
  /** Decimal text (vNF; NUMERIC as PostgreSQL prints it), never a float. */
  totalValue: string | null;
  protocol: string | null;
}

export interface ReceivedDocumentRecord extends ReceivedDocumentFields {
  id: string;
  documentType: DocumentTypeName;
  situation: string;
  hasFull: boolean;
  createdAt: Date;
  events: ReceivedEventRecord[];
  manifestations: ReceivedManifestationRecord[];
}

const COLUMNS = `d.id, d.document_type AS "documentType", d.access_key AS "accessKey", d.issuer_tax_id AS "issuerTaxId",
  d.issuer_name AS "issuerName", d.issued_at AS "issuedAt", d.authorized_at AS "authorizedAt", d.total_value::text AS "totalValue",
  d.protocol, d.situation, d.full_xml IS NOT NULL AS "hasFull", d.created_at AS "createdAt",
  COALESCE((SELECT json_agg(json_build_object('eventType', e.event_type, 'sequence', e.sequence, 'description', e.description,
    'authorTaxId', e.author_tax_id, 'occurredAt', e.occurred_at, 'protocol', e.protocol) ORDER BY e.occurred_at, e.sequence)
    FROM received_events e WHERE e.document_id = d.id), '[]') AS events,
  COALESCE((SELECT json_agg(json_build_object('id', m.id, 'eventType', m.event_type, 'sequence', m.sequence,
    'justification', m.justification, 'status', m.status, 'protocol', m.protocol, 'statusCode', m.status_code,
    'statusMessage', m.status_message, 'registeredAt', m.registered_at, 'createdAt', m.created_at) ORDER BY m.created_at)
    FROM received_manifestations m WHERE m.document_id = d.id), '[]') AS manifestations`;

/** The latest registered conclusive event of the document (NULL without one). */
const LATEST_CONCLUSIVE = `(SELECT m.event_type FROM received_manifestations m WHERE m.document_id = d.id AND m.status = 'registered'
  AND m.event_type IN ('210200', '210220', '210240') ORDER BY m.registered_at DESC LIMIT 1)`;
const AWARE = `EXISTS (SELECT 1 FROM received_manifestations m WHERE m.document_id = d.id AND m.status = 'registered'
  AND m.event_type = '210210')`;

interface RawRecord extends Omit<ReceivedDocumentRecord, 'events' | 'manifestations'> {
  events: Array<Omit<ReceivedEventRecord, 'occurredAt'> & { occurredAt: string | null }>;
  manifestations: Array<
    Omit<ReceivedManifestationRecord, 'registeredAt' | 'createdAt'> & { registeredAt: string | null; createdAt: string }
  >;
}

const toRecord = (row: RawRecord): ReceivedDocumentRecord => ({
  ...row,
  events: row.events.map((e) => ({ ...e, occurredAt: e.occurredAt ? new Date(e.occurredAt) : null })),
  manifestations: row.manifestations.map((m) => ({
    ...m,
    registeredAt: m.registeredAt ? new Date(m.registeredAt) : null,
    createdAt: new Date(m.createdAt),
  })),
});

export class ReceivedDocumentsReads {
  constructor(private readonly pool: pg.Pool) {}

  async list(query: ReceivedListQuery): Promise<{ total: number; data: ReceivedDocumentRecord[] }> {
    const params: unknown[] = [query.companyId, query.environment];
    const where = ['d.company_id = $1', 'd.environment = $2::"Environment"'];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (query.documentType) add((n) => `d.document_type = ${n}::"DocumentType"`, query.documentType);
    if (query.issuerTaxId) add((n) => `d.issuer_tax_id = ${n}`, query.issuerTaxId);
    if (query.issuedFrom) add((n) => `d.issued_at >= ${n}`, query.issuedFrom);
    if (query.issuedTo) add((n) => `d.issued_at <= ${n}`, query.issuedTo);
    if (query.situation) add((n) => `d.situation = ${n}`, query.situation);
    if (query.form) where.push(query.form === 'full' ? 'd.full_xml IS NOT NULL' : 'd.full_xml IS NULL');
    const m = query.manifestation;
    if (m && (m.state !== undefined || m.awaitingConclusive !== undefined || m.deadlineBefore)) {
      const { cutover, daysAfter, daysBefore } = m.conclusiveDeadline;
      // Pushed only when the deadline is part of the filter: PostgreSQL refuses a parameter it cannot type (unused).
      const usesDeadline = m.awaitingConclusive !== undefined || m.deadlineBefore !== undefined || typeof m.state === 'string';
      if (usesDeadline) params.push(cutover, daysAfter, daysBefore, m.now);
      const [c, after, before, now] = [params.length - 3, params.length - 2, params.length - 1, params.length].map((i) => `$${i}`);
      const deadline = `(d.authorized_at + make_interval(days => CASE WHEN d.authorized_at >= ${c}::timestamptz THEN ${after}::int ELSE ${before}::int END))`;
      const open = `(d.authorized_at IS NULL OR ${deadline} >= ${now}::timestamptz)`;
      const awaiting = `(d.document_type = 'nfe' AND ${LATEST_CONCLUSIVE} IS NULL AND ${open})`;
      if (m.awaitingConclusive !== undefined) where.push(m.awaitingConclusive ? awaiting : `NOT ${awaiting}`);
      if (m.deadlineBefore) add((n) => `${awaiting} AND ${deadline} < ${n}::timestamptz`, m.deadlineBefore);
      const state = m.state;
      if (state === 'deemed_confirmed') where.push(`d.document_type = 'nfe' AND ${LATEST_CONCLUSIVE} IS NULL AND NOT ${open}`);
      else if (state === 'none') where.push(`${awaiting} AND NOT ${AWARE}`);
      else if (state === 'awareness') where.push(`${awaiting} AND ${AWARE}`);
      else if (state) add((n) => `${LATEST_CONCLUSIVE} = ${n}`, state.conclusive);
    }
    const filter = where.join(' AND ');
    const count = await this.pool.query<{ total: string }>(`SELECT count(*) AS total FROM received_documents d WHERE ${filter}`, params);
    const page = await this.pool.query<RawRecord>(
      `SELECT ${COLUMNS} FROM received_documents d WHERE ${filter}
       ORDER BY d.issued_at DESC NULLS LAST, d.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
      params,
    );
    return { total: Number(count.rows[0]?.total ?? 0), data: page.rows.map(toRecord) };
  }

  /** The held XML of one document: the full one when held, else the summary. */
  async xml(companyId: string, environment: EnvironmentName, accessKey: string): Promise<{ form: 'summary' | 'full'; xml: string } | null> {
    const { rows } = await this.pool.query<{ full: string | null; summary: string | null }>(
      `SELECT full_xml AS full, summary_xml AS summary FROM received_documents
       WHERE company_id = $1 AND environment = $2::"Environment" AND access_key = $3`,
      [companyId, environment, accessKey],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.full !== null) return { form: 'full', xml: row.full };
    return row.summary !== null ? { form: 'summary', xml: row.summary } : null;
  }
}
