// The statements of the creation path and the outcome wait, as plain SQL for a SqlRunner (see sql-runner.ts).
// ON CONFLICT DO NOTHING covers both unique constraints (the number, and the id): the caller tells them apart.
import { Prisma } from '../generated/prisma/client.js';
import type { DocumentTypeName, EnvironmentName, InvoiceRecord, InvoiceStatusName } from './issuance-records.js';
import type { SqlRunner } from './sql-runner.js';

export interface InvoiceInsert {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  series: number;
  number: number;
  request: Prisma.InputJsonValue;
  totalAmount: string;
  createdAt: Date;
  reissueOfId?: string;
  accessKey?: string;
  dpsId?: string;
}

export const INVOICE_COLUMNS = `id, company_id, environment::text AS environment, document_type::text AS document_type, status::text AS status,
  series, number, access_key, dps_id, protocol, request, total_amount, contingency, status_code, status_message,
  authorized_xml, reissue_of_id, invalidated_by_id, issued_at, created_at, updated_at`;

export interface InvoiceSqlRow {
  id: string;
  company_id: string;
  environment: EnvironmentName;
  document_type: DocumentTypeName;
  status: InvoiceStatusName;
  series: number;
  number: bigint | string | number;
  access_key: string | null;
  dps_id: string | null;
  protocol: string | null;
  request: unknown;
  total_amount: { toString(): string };
  contingency: boolean;
  status_code: string | null;
  status_message: string | null;
  authorized_xml: string | null;
  reissue_of_id: string | null;
  invalidated_by_id: string | null;
  issued_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The same record toInvoiceRecord makes of a Prisma row (the amount normalised by Prisma's Decimal, e.g. "10"). */
export function invoiceRecordOf(row: InvoiceSqlRow): InvoiceRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    environment: row.environment,
    documentType: row.document_type,
    status: row.status,
    series: Number(row.series),
    number: Number(row.number),
    accessKey: row.access_key,
    dpsId: row.dps_id,
    protocol: row.protocol,
    request: row.request,
    totalAmount: new Prisma.Decimal(row.total_amount.toString()).toString(),
    contingency: row.contingency,
    statusCode: row.status_code,
    statusMessage: row.status_message,
    authorizedXml: row.authorized_xml,
    reissueOfId: row.reissue_of_id,
    invalidatedById: row.invalidated_by_id,
    issuedAt: row.issued_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

// RETURNING only what the record cannot take from the insert itself: the stored amount (numeric(15,2) rounds it) and
// the column default (contingency); id and number identify the row a batch inserted. Everything else is the input:
// the status is the literal below, both timestamps are $9 (milliseconds, as timestamptz(3) keeps them), the rest is
// null. Not returned on purpose: the request jsonb, which PostgreSQL would serialise and node parse again although
// the caller has just sent it.
const INSERTED_COLUMNS = `id::text AS id, number, total_amount, contingency`;

interface InsertedSqlRow {
  id: string;
  number: bigint | string | number;
  total_amount: { toString(): string };
  contingency: boolean;
}

const INSERT = `INSERT INTO invoices (id, company_id, environment, document_type, status, series, number, request, total_amount,
                      created_at, updated_at, reissue_of_id, access_key, dps_id)
VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::"DocumentType", 'processing', $5::int, $6::bigint, $7::jsonb, $8::numeric,
        $9::timestamptz, $9::timestamptz, $10::uuid, $11::varchar, $12::varchar)
ON CONFLICT DO NOTHING
RETURNING ${INSERTED_COLUMNS}`;

// The same insert for many rows (StatementBatcher's runBatch, on a coalescing runner): one array per column, the requests as one JSON array
// (no array-literal escaping of every quote of every request). ROWS FROM zips them in order, and rows are inserted in
// that order: of two rows claiming the same number (or id), the earlier call wins and the later is skipped.
const INSERT_MANY = `INSERT INTO invoices (id, company_id, environment, document_type, status, series, number, request, total_amount,
                      created_at, updated_at, reissue_of_id, access_key, dps_id)
SELECT r.id, r.company_id, r.environment, r.document_type, 'processing'::"InvoiceStatus", r.series, r.number, r.request, r.total_amount,
       r.created_at, r.created_at, r.reissue_of_id, r.access_key, r.dps_id
FROM ROWS FROM (unnest($1::uuid[]), unnest($2::uuid[]), unnest($3::"Environment"[]), unnest($4::"DocumentType"[]), unnest($5::int[]),
                unnest($6::bigint[]), jsonb_array_elements($7::jsonb), unnest($8::numeric[]), unnest($9::timestamptz[]),
                unnest($10::uuid[]), unnest($11::varchar[]), unnest($12::varchar[]))
  AS r(id, company_id, environment, document_type, series, number, request, total_amount, created_at, reissue_of_id, access_key, dps_id)
ON CONFLICT DO NOTHING
RETURNING ${INSERTED_COLUMNS}`;

/**
 * The record invoiceRecordOf makes of the stored row, from the input and what RETURNING gave. `request` is the caller's
 * own value; what was stored is its JSON form (JSON.stringify), so a JSON value comes back equal from a later read.
 */
function insertedRecordOf(row: InvoiceInsert, inserted: InsertedSqlRow): InvoiceRecord {
  return {
    id: inserted.id,
    companyId: row.companyId,
    environment: row.environment,
    documentType: row.documentType,
    status: 'processing',
    series: row.series,
    number: Number(inserted.number),
    accessKey: row.accessKey ?? null,
    dpsId: row.dpsId ?? null,
    protocol: null,
    request: row.request,
    totalAmount: new Prisma.Decimal(inserted.total_amount.toString()).toString(),
    contingency: inserted.contingency,
    statusCode: null,
    statusMessage: null,
    authorizedXml: null,
    reissueOfId: row.reissueOfId ?? null,
    invalidatedById: null,
    issuedAt: null,
    createdAt: new Date(row.createdAt.getTime()),
    updatedAt: new Date(row.createdAt.getTime()),
  };
}

async function insertOne(sql: SqlRunner, row: InvoiceInsert): Promise<InvoiceRecord | null> {
  const rows = await sql.query<InsertedSqlRow>('talao_invoice_insert', INSERT, [
    row.id,
    row.companyId,
    row.environment,
    row.documentType,
    row.series,
    row.number,
    JSON.stringify(row.request),
    row.totalAmount,
    row.createdAt,
    row.reissueOfId ?? null,
    row.accessKey ?? null,
    row.dpsId ?? null,
  ]);
  return rows[0] ? insertedRecordOf(row, rows[0]) : null;
}

/**
 * The new `processing` row, or null when its number (or its id) is already taken. On a coalescing runner, inserted
 * together with concurrent calls.
 */
export function insertProcessingInvoice(sql: SqlRunner, row: InvoiceInsert): Promise<InvoiceRecord | null> {
  const batcher = sql.batcher?.('talao_invoice_insert_many', (rows: InvoiceInsert[]) => insertProcessingInvoices(sql, rows));
  return batcher ? batcher.run(row) : insertOne(sql, row);
}

/**
 * Many rows in one statement; per input, in order, its record or null when its number or id was taken (before, or by
 * an earlier row of the same batch). One failing row (a bad amount, a missing company) fails the whole statement.
 */
export async function insertProcessingInvoices(sql: SqlRunner, rows: readonly InvoiceInsert[]): Promise<Array<InvoiceRecord | null>> {
  if (rows.length === 1) return [await insertOne(sql, rows[0]!)];
  const inserted = await sql.query<InsertedSqlRow>('talao_invoice_insert_many', INSERT_MANY, [
    rows.map((r) => r.id),
    rows.map((r) => r.companyId),
    rows.map((r) => r.environment),
    rows.map((r) => r.documentType),
    rows.map((r) => r.series),
    rows.map((r) => r.number),
    JSON.stringify(rows.map((r) => r.request)),
    rows.map((r) => r.totalAmount),
    rows.map((r) => r.createdAt),
    rows.map((r) => r.reissueOfId ?? null),
    rows.map((r) => r.accessKey ?? null),
    rows.map((r) => r.dpsId ?? null),
  ]);
  // Back by id and number (one call's id may be in the batch twice, with the later row skipped); the same id and number
  // twice is the same row twice, and the earlier call is the one that was inserted.
  const byRow = new Map(inserted.map((r) => [`${r.id}|${Number(r.number)}`, r]));
  return rows.map((row) => {
    const key = `${row.id.toLowerCase()}|${row.number}`;
    const hit = byRow.get(key);
    if (!hit) return null;
    byRow.delete(key);
    return insertedRecordOf(row, hit);
  });
}

const BY_ID = `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1::uuid`;

export async function selectInvoiceById(sql: SqlRunner, id: string): Promise<InvoiceRecord | null> {
  const rows = await sql.query<InvoiceSqlRow>('talao_invoice_by_id', BY_ID, [id]);
  return rows[0] ? invoiceRecordOf(rows[0]) : null;
}

// An access key or a DPS id (an NFS-e not yet authorized is known by it): the newest of the company's in the environment.
const BY_ACCESS_KEY = `SELECT ${INVOICE_COLUMNS} FROM invoices
WHERE company_id = $1::uuid AND environment = $2::"Environment" AND (access_key = $3::varchar OR dps_id = $3::varchar)
ORDER BY created_at DESC LIMIT 1`;

export async function selectInvoiceByAccessKey(
  sql: SqlRunner,
  companyId: string,
  environment: string,
  accessKey: string,
): Promise<InvoiceRecord | null> {
  const rows = await sql.query<InvoiceSqlRow>('talao_invoice_by_access_key', BY_ACCESS_KEY, [companyId, environment, accessKey]);
  return rows[0] ? invoiceRecordOf(rows[0]) : null;
}
