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

export interface ReceivedDocumentRecord {
  id: string;
  documentType: DocumentTypeName;
  accessKey: string;
  issuerTaxId: string;
  issuerName: string | null;
  issuedAt: Date | null;
  authorizedAt: Date | null;
  /** NUMERIC as PostgreSQL prints it (decimal text), never a float. */
  totalValue: string | null;
  protocol: string | null;
  situation: string;
  hasFull: boolean;
  createdAt: Date;
  events: ReceivedEventRecord[];
}

const COLUMNS = `d.id, d.document_type AS "documentType", d.access_key AS "accessKey", d.issuer_tax_id AS "issuerTaxId",
  d.issuer_name AS "issuerName", d.issued_at AS "issuedAt", d.authorized_at AS "authorizedAt", d.total_value::text AS "totalValue",
  d.protocol, d.situation, d.full_xml IS NOT NULL AS "hasFull", d.created_at AS "createdAt",
  COALESCE((SELECT json_agg(json_build_object('eventType', e.event_type, 'sequence', e.sequence, 'description', e.description,
    'authorTaxId', e.author_tax_id, 'occurredAt', e.occurred_at, 'protocol', e.protocol) ORDER BY e.occurred_at, e.sequence)
    FROM received_events e WHERE e.document_id = d.id), '[]') AS events`;

interface RawRecord extends Omit<ReceivedDocumentRecord, 'events'> {
  events: Array<Omit<ReceivedEventRecord, 'occurredAt'> & { occurredAt: string | null }>;
}

const toRecord = (row: RawRecord): ReceivedDocumentRecord => ({
  ...row,
  events: row.events.map((e) => ({ ...e, occurredAt: e.occurredAt ? new Date(e.occurredAt) : null })),
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
