// The two reads of an amendment's hot path, one statement each (named prepared statements on the pool): the
// gateway's, which finds the invoice to amend with its company's state and its amendments so far, and the amend
// job's, which loads the amendment with everything its event needs. Both read only the invoice columns an amendment
// uses: never its request nor its XML, the two large (TOASTed) columns every full invoice read decompresses.
import { Prisma } from '../generated/prisma/client.js';
import type { DecidedFields, EnvironmentName, InvoiceRecord } from './issuance-records.js';
import type { SqlRunner } from './sql-runner.js';

export type AmendmentKind = 'cancellation' | 'correction';
export type AmendmentStatus = DecidedFields['status'];

export interface AmendmentRecord extends DecidedFields {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  invoiceId: string;
  kind: AmendmentKind;
  sequence: number;
  text: string;
}

/** An exchange of an amendment as the consult-first rule reads it. */
export interface AmendmentTransmission {
  operation: string;
  requestBody: string;
  outcome: string | null;
}

/** What an amendment's checks, event and decision need of its invoice. */
export type AmendedInvoice = Pick<
  InvoiceRecord,
  'id' | 'companyId' | 'environment' | 'documentType' | 'status' | 'accessKey' | 'protocol' | 'totalAmount' | 'issuedAt' | 'createdAt'
>;

/** The invoice an amendment request names, its company's state (the cancellation window's) and its amendments. */
export interface AmendableInvoice {
  invoice: AmendedInvoice;
  companyState: string;
  /** Ordered by kind, then sequence. */
  amendments: AmendmentRecord[];
}

/** The amend job's one read. */
export interface AmendJobSnapshot {
  amendment: AmendmentRecord;
  /** Null when the invoice (or its company) no longer exists. */
  invoice: AmendedInvoice | null;
  company: { id: string; taxId: string; state: string } | null;
  /** The company's active certificate (the issue snapshot's rule); null when none. */
  certificateId: string | null;
  /** The amendment's exchanges so far, oldest first. */
  transmissions: AmendmentTransmission[];
}

/** The amendment record's select list, its columns qualified by `table` (a name or an alias). */
export const amendmentColumns = (table: string) => `${table}.id::text AS id, ${table}.company_id::text AS "companyId",
  ${table}.environment::text AS environment, ${table}.invoice_id::text AS "invoiceId", ${table}.kind, ${table}.sequence, ${table}.text,
  ${table}.status, ${table}.protocol, ${table}.status_code AS "statusCode", ${table}.status_message AS "statusMessage",
  ${table}.registered_at AS "registeredAt", ${table}.created_at AS "createdAt"`;

const INVOICE_COLUMNS = `i.id::text AS "invoiceRowId", i.company_id::text AS "invoiceCompanyId", i.environment::text AS "invoiceEnvironment",
  i.document_type::text AS "documentType", i.status::text AS "invoiceStatus", i.access_key AS "accessKey", i.protocol AS "invoiceProtocol",
  i.total_amount::text AS "totalAmount", i.issued_at AS "issuedAt", i.created_at AS "invoiceCreatedAt"`;

/** The columns of INVOICE_COLUMNS as read; every one but the nullable three is NOT NULL in its table. */
interface InvoiceColumns {
  invoiceRowId: string;
  invoiceCompanyId: string;
  invoiceEnvironment: EnvironmentName;
  documentType: AmendedInvoice['documentType'];
  invoiceStatus: AmendedInvoice['status'];
  accessKey: string | null;
  invoiceProtocol: string | null;
  totalAmount: string;
  issuedAt: Date | null;
  invoiceCreatedAt: Date;
}

function invoiceOf(row: InvoiceColumns): AmendedInvoice {
  return {
    id: row.invoiceRowId,
    companyId: row.invoiceCompanyId,
    environment: row.invoiceEnvironment,
    documentType: row.documentType,
    status: row.invoiceStatus,
    accessKey: row.accessKey,
    protocol: row.invoiceProtocol,
    // As every invoice record states it (invoiceRecordOf): the stored numeric through Decimal.
    totalAmount: new Prisma.Decimal(row.totalAmount).toString(),
    issuedAt: row.issuedAt,
    createdAt: row.invoiceCreatedAt,
  };
}

// The invoice by the company's access key (NF-e 44 / NFS-e 50 digits; the newest, as GET /invoices/{key} reads it) or
// by id, in the credential's environment, with its company's state and its amendments (JSON, one column).
// The environment is compared as text, which no index serves: compared as the enum, (company_id, environment) made
// the unique (company_id, environment, document_type, series, number) index look as selective as (company_id,
// access_key) to the generic plan, which then read every invoice of the company to find one key (seen in
// bench:amendments: 899 rows removed by the filter for each cancellation, the largest CPU cost in PostgreSQL).
const amendable = (where: string) => `SELECT ${INVOICE_COLUMNS}, c.state AS "companyState",
  (SELECT json_agg(x ORDER BY x.kind, x.sequence) FROM (SELECT ${amendmentColumns('a')} FROM amendments a WHERE a.invoice_id = i.id) x)
    AS amendments
FROM invoices i JOIN companies c ON c.id = i.company_id
WHERE i.company_id = $1::uuid AND i.environment::text = $2::text AND ${where}
ORDER BY i.created_at DESC LIMIT 1`;
const AMENDABLE_BY_ACCESS_KEY = amendable('i.access_key = $3::varchar');
const AMENDABLE_BY_ID = amendable('i.id = $3::uuid');

type AmendmentJson = Omit<AmendmentRecord, 'registeredAt' | 'createdAt'> & { registeredAt: string | null; createdAt: string };

export async function selectAmendableInvoice(
  sql: SqlRunner,
  scope: { companyId: string; environment: EnvironmentName },
  key: { accessKey: string } | { id: string },
): Promise<AmendableInvoice | null> {
  const [row] =
    'id' in key
      ? await sql.query<AmendableRow>('talao_amendable_by_id', AMENDABLE_BY_ID, [scope.companyId, scope.environment, key.id])
      : await sql.query<AmendableRow>('talao_amendable_by_access_key', AMENDABLE_BY_ACCESS_KEY, [
          scope.companyId,
          scope.environment,
          key.accessKey,
        ]);
  if (!row) return null;
  return {
    invoice: invoiceOf(row),
    companyState: row.companyState,
    amendments: (row.amendments ?? []).map((a) => ({
      ...a,
      registeredAt: a.registeredAt === null ? null : new Date(a.registeredAt),
      createdAt: new Date(a.createdAt),
    })),
  };
}

interface AmendableRow extends InvoiceColumns {
  companyState: string;
  amendments: AmendmentJson[] | null;
}

// The amend job's read: one snapshot, which is the view consult-first needs — while the amendment is `pending` here,
// every exchange a finished run committed before is visible too.
const LOAD_FOR_AMEND = `SELECT ${amendmentColumns('a')}, ${INVOICE_COLUMNS},
  c.id::text AS "companyId_", c.tax_id AS "taxId", c.state AS "companyState",
  (SELECT k.id::text FROM certificates k WHERE k.company_id = i.company_id AND k.replaced_at IS NULL ORDER BY k.created_at DESC LIMIT 1)
    AS "certificateId",
  (SELECT json_agg(t ORDER BY t.attempt) FROM (
     SELECT attempt, operation, request_body AS "requestBody", outcome FROM submissions s WHERE s.amendment_id = a.id) t) AS transmissions
FROM amendments a LEFT JOIN invoices i ON i.id = a.invoice_id LEFT JOIN companies c ON c.id = i.company_id
WHERE a.id = $1::uuid`;

/** LOAD_FOR_AMEND's row: the invoice's and company's columns are all null when the LEFT JOINs found none. */
type LoadForAmendRow = AmendmentRecord &
  ({ [K in keyof InvoiceColumns]: InvoiceColumns[K] } | { [K in keyof InvoiceColumns]: null }) &
  ({ companyId_: string; taxId: string; companyState: string } | { companyId_: null; taxId: null; companyState: null }) & {
    certificateId: string | null;
    transmissions: Array<AmendmentTransmission & { attempt: number }> | null;
  };

// Every field of an amendment record, once (the mapped type makes a field added to the record a compile error here):
// what picks the amendment out of LOAD_FOR_AMEND's wider row.
const AMENDMENT_FIELDS: { [K in keyof AmendmentRecord]-?: true } = {
  id: true,
  companyId: true,
  environment: true,
  invoiceId: true,
  kind: true,
  sequence: true,
  text: true,
  status: true,
  protocol: true,
  statusCode: true,
  statusMessage: true,
  registeredAt: true,
  createdAt: true,
};

const amendmentOf = (row: AmendmentRecord): AmendmentRecord =>
  Object.fromEntries(
    Object.keys(AMENDMENT_FIELDS).map((field) => [field, row[field as keyof AmendmentRecord]]),
  ) as unknown as AmendmentRecord;

export async function selectAmendJobSnapshot(sql: SqlRunner, amendmentId: string): Promise<AmendJobSnapshot | null> {
  const [row] = await sql.query<LoadForAmendRow>('talao_amendment_load_for_amend', LOAD_FOR_AMEND, [amendmentId]);
  if (!row) return null;
  return {
    amendment: amendmentOf(row),
    invoice: row.invoiceRowId === null ? null : invoiceOf(row),
    company: row.companyId_ === null ? null : { id: row.companyId_, taxId: row.taxId, state: row.companyState },
    certificateId: row.certificateId,
    transmissions: (row.transmissions ?? []).map(({ operation, requestBody, outcome }) => ({ operation, requestBody, outcome })),
  };
}
