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
  authorized_xml, reissue_of_id, issued_at, created_at, updated_at`;

export interface InvoiceSqlRow {
  id: string; company_id: string; environment: EnvironmentName; document_type: DocumentTypeName; status: InvoiceStatusName;
  series: number; number: bigint | string | number; access_key: string | null; dps_id: string | null; protocol: string | null;
  request: unknown; total_amount: { toString(): string }; contingency: boolean; status_code: string | null;
  status_message: string | null; authorized_xml: string | null; reissue_of_id: string | null; issued_at: Date | null;
  created_at: Date; updated_at: Date;
}

/** The same record toInvoiceRecord makes of a Prisma row (the amount normalised by Prisma's Decimal, e.g. "10"). */
export function invoiceRecordOf(row: InvoiceSqlRow): InvoiceRecord {
  return {
    id: row.id, companyId: row.company_id, environment: row.environment, documentType: row.document_type, status: row.status,
    series: Number(row.series), number: Number(row.number), accessKey: row.access_key, dpsId: row.dps_id, protocol: row.protocol,
    request: row.request, totalAmount: new Prisma.Decimal(row.total_amount.toString()).toString(), contingency: row.contingency,
    statusCode: row.status_code, statusMessage: row.status_message, authorizedXml: row.authorized_xml, reissueOfId: row.reissue_of_id,
    issuedAt: row.issued_at, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

const INSERT = `INSERT INTO invoices (id, company_id, environment, document_type, status, series, number, request, total_amount,
                      created_at, updated_at, reissue_of_id, access_key, dps_id)
VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::"DocumentType", 'processing', $5::int, $6::bigint, $7::jsonb, $8::numeric,
        $9::timestamptz, $9::timestamptz, $10::uuid, $11::varchar, $12::varchar)
ON CONFLICT DO NOTHING
RETURNING ${INVOICE_COLUMNS}`;

/** The new `processing` row, or null when its number (or its id) is already taken. */
export async function insertProcessingInvoice(sql: SqlRunner, row: InvoiceInsert): Promise<InvoiceRecord | null> {
  const rows = await sql.query<InvoiceSqlRow>('talao_invoice_insert', INSERT, [
    row.id, row.companyId, row.environment, row.documentType, row.series, row.number, JSON.stringify(row.request), row.totalAmount,
    row.createdAt, row.reissueOfId ?? null, row.accessKey ?? null, row.dpsId ?? null,
  ]);
  return rows[0] ? invoiceRecordOf(rows[0]) : null;
}

const BY_ID = `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1::uuid`;

export async function selectInvoiceById(sql: SqlRunner, id: string): Promise<InvoiceRecord | null> {
  const rows = await sql.query<InvoiceSqlRow>('talao_invoice_by_id', BY_ID, [id]);
  return rows[0] ? invoiceRecordOf(rows[0]) : null;
}
