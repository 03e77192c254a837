// The issue job's one read: the invoice, its company, the company's active certificate (metadata only) and the
// invoice's earlier exchanges, as ONE statement — one round trip, one snapshot, one plan (a named prepared statement
// on a pg pool). Reading all four in one snapshot is also the consistent view the consult-first rule needs: when the
// invoice is still `processing` here, every exchange a finished run committed before it is visible too.
import { Prisma, type Company } from '../generated/prisma/client.js';
import type { CertificateMetadata } from './certificates-repository.js';
import { INVOICE_COLUMNS, invoiceRecordOf, type InvoiceSqlRow } from './invoice-insert.js';
import type { InvoiceRecord, SubmissionRecord } from './issuance-records.js';
import type { SqlRunner } from './sql-runner.js';
import { SUBMISSION_COLUMNS } from './submission-columns.js';

export interface IssueSnapshot {
  invoice: InvoiceRecord;
  /** Null when the company was deleted meanwhile. */
  company: Company | null;
  /** The active certificate's id and metadata (never its sealed bytes); null when none. */
  certificate: { id: string; metadata: CertificateMetadata } | null;
  /** Oldest first. */
  submissions: SubmissionRecord[];
  /**
   * For an NF-e: the invalidation (pending or registered) whose range holds its number, else null. Such a number must
   * never be sent. Filing checks the invoices of the range, but a number reserved and not yet inserted is invisible to
   * it; the issue job reads this after the invoice's insert committed, and the invalidate job reads the invoices after
   * the filing committed, so of two such racing requests at least one of them sees the other (docs/architecture.md,
   * "A number reserved before a filing").
   */
  invalidationId: string | null;
}

// JSON for the company and the submissions (one column each); the company's money as text inside it, so no amount
// ever passes through a JavaScript number. The same select list reads one invoice or many (see SNAPSHOTS).
const SNAPSHOT_COLUMNS = `i.*,
  (SELECT row_to_json(c) FROM (
     SELECT id::text AS id, tax_id AS "taxId", state_registration AS "stateRegistration", municipal_registration AS "municipalRegistration",
            legal_name AS "legalName", trade_name AS "tradeName", tax_regime::text AS "taxRegime", street, number, complement, district,
            city_code AS "cityCode", city_name AS "cityName", state, postal_code AS "postalCode", phone, email,
            default_nfe_series AS "defaultNfeSeries", default_nfse_series AS "defaultNfseSeries",
            default_nfse_service_code AS "defaultNfseServiceCode", approximate_taxes AS "approximateTaxes",
            plan_name AS "planName", production_quota AS "productionQuota",
            overage_price::text AS "overagePrice", created_at AS "createdAt", updated_at AS "updatedAt"
     FROM companies WHERE id = i.company_id) c) AS snapshot_company,
  (SELECT row_to_json(k) FROM (
     SELECT id::text AS id, subject_tax_id AS "subjectTaxId", subject_name AS "subjectName", issuer_name AS "issuerName",
            serial_number AS "serialNumber", not_before AS "notBefore", not_after AS "notAfter"
     FROM certificates WHERE company_id = i.company_id AND replaced_at IS NULL
     ORDER BY created_at DESC LIMIT 1) k) AS snapshot_certificate,
  (SELECT json_agg(s ORDER BY s.attempt) FROM (SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE invoice_id = i.id) s) AS snapshot_submissions,
  (SELECT v.id::text FROM invalidations v
   WHERE i.document_type = 'nfe' AND v.company_id = i.company_id AND v.environment = i.environment::"Environment"
     AND v.series = i.series AND v.number_start <= i.number AND v.number_end >= i.number AND v.status <> 'rejected'
   LIMIT 1) AS snapshot_invalidation_id`;

const SNAPSHOT = `SELECT ${SNAPSHOT_COLUMNS}
FROM (SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1::uuid) i`;

// Many invoices in one statement (one snapshot for all of them): one row per id found, tagged with the id's position
// in the array, which is how each row finds its caller (PostgreSQL promises no order). One text for any count.
const SNAPSHOTS = `SELECT q.ord::int AS snapshot_ord, ${SNAPSHOT_COLUMNS}
FROM unnest($1::uuid[]) WITH ORDINALITY AS q(id, ord)
CROSS JOIN LATERAL (SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = q.id) i`;

type CompanyJson = Omit<Company, 'overagePrice' | 'createdAt' | 'updatedAt' | 'taxRegime'> & {
  overagePrice: string | null;
  createdAt: string;
  updatedAt: string;
  taxRegime: Company['taxRegime'];
};
type CertificateJson = Omit<CertificateMetadata, 'notBefore' | 'notAfter'> & { id: string; notBefore: string; notAfter: string };
type SubmissionJson = Omit<SubmissionRecord, 'sentAt' | 'answeredAt'> & { sentAt: string; answeredAt: string | null };

interface SnapshotRow extends InvoiceSqlRow {
  snapshot_company: CompanyJson | null;
  snapshot_certificate: CertificateJson | null;
  snapshot_submissions: SubmissionJson[] | null;
  snapshot_invalidation_id: string | null;
}

function companyOf(json: CompanyJson): Company {
  return {
    ...json,
    overagePrice: json.overagePrice === null ? null : new Prisma.Decimal(json.overagePrice),
    createdAt: new Date(json.createdAt),
    updatedAt: new Date(json.updatedAt),
  };
}

function certificateOf(json: CertificateJson): IssueSnapshot['certificate'] {
  const { id, notBefore, notAfter, ...rest } = json;
  return { id, metadata: { ...rest, notBefore: new Date(notBefore), notAfter: new Date(notAfter) } };
}

function submissionOf(json: SubmissionJson): SubmissionRecord {
  return { ...json, sentAt: new Date(json.sentAt), answeredAt: json.answeredAt === null ? null : new Date(json.answeredAt) };
}

function snapshotOf(row: SnapshotRow): IssueSnapshot {
  const {
    snapshot_company: company,
    snapshot_certificate: certificate,
    snapshot_submissions: submissions,
    snapshot_invalidation_id: invalidationId,
    ...invoice
  } = row;
  return {
    invoice: invoiceRecordOf(invoice),
    company: company ? companyOf(company) : null,
    certificate: certificate ? certificateOf(certificate) : null,
    submissions: (submissions ?? []).map(submissionOf),
    invalidationId,
  };
}

async function readIssueSnapshot(sql: SqlRunner, invoiceId: string): Promise<IssueSnapshot | null> {
  const rows = await sql.query<SnapshotRow>('talao_issue_snapshot', SNAPSHOT, [invoiceId]);
  return rows[0] ? snapshotOf(rows[0]) : null;
}

/** Null when there is no such invoice. On a coalescing runner, read together with concurrent calls. */
export function selectIssueSnapshot(sql: SqlRunner, invoiceId: string): Promise<IssueSnapshot | null> {
  const batcher = sql.batcher?.('talao_issue_snapshots', (ids: string[]) => selectIssueSnapshots(sql, ids));
  return batcher ? batcher.run(invoiceId) : readIssueSnapshot(sql, invoiceId);
}

/**
 * The snapshots of many invoices, read by one statement (StatementBatcher's runBatch): one answer per id, in the
 * order of `invoiceIds` (null for an id with no invoice). Ids must be UUIDs. A lone id takes the one-invoice statement.
 */
export async function selectIssueSnapshots(sql: SqlRunner, invoiceIds: string[]): Promise<Array<IssueSnapshot | null>> {
  if (invoiceIds.length === 1) return [await readIssueSnapshot(sql, invoiceIds[0]!)];
  const rows = await sql.query<SnapshotRow & { snapshot_ord: number }>('talao_issue_snapshots', SNAPSHOTS, [invoiceIds]);
  const snapshots: Array<IssueSnapshot | null> = invoiceIds.map(() => null);
  for (const { snapshot_ord: ord, ...row } of rows) snapshots[ord - 1] = snapshotOf(row);
  return snapshots;
}
