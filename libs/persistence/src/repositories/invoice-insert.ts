// The invoice INSERT of the creation path, as one raw statement: Prisma's createManyAndReturn compiled and mapped a
// generic query on every call, one of the largest CPU costs per issuance. ON CONFLICT DO NOTHING covers both unique
// constraints (the number, and the id): the caller tells them apart.
import { Prisma } from '../generated/prisma/client.js';
import type { DbClient, DocumentTypeName, EnvironmentName, InvoiceRecord } from './issuance-records.js';
import { toInvoiceRecord } from './issuance-records.js';

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

/** Every column, under the names of the Prisma model, so the row maps like one Prisma returned. */
const RETURNED = Prisma.sql`id, company_id AS "companyId", environment::text AS environment, document_type::text AS "documentType",
  status::text AS status, series, number, access_key AS "accessKey", dps_id AS "dpsId", protocol, request,
  total_amount AS "totalAmount", contingency, status_code AS "statusCode", status_message AS "statusMessage",
  authorized_xml AS "authorizedXml", reissue_of_id AS "reissueOfId", issued_at AS "issuedAt", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

/** The new `processing` row, or null when its number (or its id) is already taken. */
export async function insertProcessingInvoice(client: DbClient, row: InvoiceInsert): Promise<InvoiceRecord | null> {
  const rows = await client.$queryRaw<Array<Parameters<typeof toInvoiceRecord>[0]>>`
    INSERT INTO invoices (id, company_id, environment, document_type, status, series, number, request, total_amount,
                          created_at, updated_at, reissue_of_id, access_key, dps_id)
    VALUES (${row.id}::uuid, ${row.companyId}::uuid, ${row.environment}::"Environment", ${row.documentType}::"DocumentType",
            'processing', ${row.series}, ${row.number}::bigint, ${JSON.stringify(row.request)}::jsonb, ${row.totalAmount}::numeric,
            ${row.createdAt}::timestamptz, ${row.createdAt}::timestamptz, ${row.reissueOfId ?? null}::uuid,
            ${row.accessKey ?? null}, ${row.dpsId ?? null})
    ON CONFLICT DO NOTHING
    RETURNING ${RETURNED}`;
  return rows[0] ? toInvoiceRecord(rows[0]) : null;
}
