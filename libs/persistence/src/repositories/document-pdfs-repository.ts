import { createHash } from 'node:crypto';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { DocumentTypeName, EnvironmentName, InvoiceStatusName } from './issuance-records.js';

/** A stored PDF and what it is served with. */
export interface StoredPdf {
  invoiceId: string;
  companyId: string;
  version: string;
  pdf: Buffer;
  sha256: string;
  pageCount: number;
  renderedAt: Date;
}

/** What GET /invoices/{key}/pdf needs of an invoice, with the PDF stored for it (of whatever version). */
export interface PdfLookup {
  invoiceId: string;
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  status: InvoiceStatusName;
  updatedAt: Date;
  accessKey: string | null;
  hasAuthorizedXml: boolean;
  stored: StoredPdf | null;
}

interface LookupRow {
  id: string;
  company_id: string;
  environment: EnvironmentName;
  document_type: DocumentTypeName;
  status: InvoiceStatusName;
  updated_at: Date;
  access_key: string | null;
  has_xml: boolean;
  version: string | null;
  sha256: string | null;
  pdf: Uint8Array | null;
  page_count: number | null;
  rendered_at: Date | null;
}

export interface NewStoredPdf {
  invoiceId: string;
  companyId: string;
  version: string;
  pdf: Uint8Array;
  pageCount: number;
  renderMs: number;
}

/**
 * The rendered DANFE / DANFSe, one row per invoice (the latest version). Reads are scoped to the company: the PDF of
 * another company's invoice is never returned, whatever id is asked for.
 */
export class DocumentPdfsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The company's invoice of that environment and document type, by id or by access key (or DPS id), with its stored
   * PDF, in one statement and without the XML or the request: the cached path of the PDF route is this one query.
   */
  async lookup(
    scope: { companyId: string; environment: EnvironmentName; documentType: DocumentTypeName },
    key: { id: string } | { accessKey: string },
  ): Promise<PdfLookup | null> {
    // One condition per kind of key, so each uses its index: the primary key, or (company_id, access_key). A DPS id
    // (an NFS-e before authorization) may also sit in dps_id, which only that case reads.
    const match =
      'id' in key
        ? Prisma.sql`i.id = ${key.id}::uuid`
        : key.accessKey.startsWith('DPS')
          ? Prisma.sql`(i.access_key = ${key.accessKey} OR i.dps_id = ${key.accessKey})`
          : Prisma.sql`i.access_key = ${key.accessKey}`;
    const rows = await this.prisma.$queryRaw<LookupRow[]>`
      SELECT i.id, i.company_id, i.environment::text AS environment, i.document_type::text AS document_type,
             i.status::text AS status, i.updated_at, i.access_key, i.authorized_xml IS NOT NULL AS has_xml,
             d.version, d.sha256, d.pdf, d.page_count, d.rendered_at
      FROM invoices i LEFT JOIN document_pdfs d ON d.invoice_id = i.id
      WHERE i.company_id = ${scope.companyId}::uuid AND ${match}
        AND i.environment = ${scope.environment}::"Environment" AND i.document_type = ${scope.documentType}::"DocumentType"
      ORDER BY i.created_at DESC
      LIMIT 1`;
    const row = rows[0];
    if (!row) return null;
    const stored: StoredPdf | null =
      row.version && row.sha256 && row.pdf
        ? {
            invoiceId: row.id,
            companyId: row.company_id,
            version: row.version,
            pdf: Buffer.from(row.pdf.buffer, row.pdf.byteOffset, row.pdf.byteLength),
            sha256: row.sha256,
            pageCount: row.page_count ?? 0,
            renderedAt: row.rendered_at ?? new Date(0),
          }
        : null;
    return {
      invoiceId: row.id,
      companyId: row.company_id,
      environment: row.environment,
      documentType: row.document_type,
      status: row.status,
      updatedAt: row.updated_at,
      accessKey: row.access_key,
      hasAuthorizedXml: row.has_xml,
      stored,
    };
  }

  /** The company's stored PDF for the invoice when it is of `version`; null when absent or of another version. */
  async find(companyId: string, invoiceId: string, version: string): Promise<StoredPdf | null> {
    const row = await this.prisma.documentPdf.findUnique({ where: { invoiceId } });
    if (!row || row.companyId !== companyId || row.version !== version) return null;
    return { ...row, pdf: Buffer.from(row.pdf.buffer, row.pdf.byteOffset, row.pdf.byteLength) };
  }

  /** The version stored for the invoice, without the bytes (the renderer skips a render it already did). */
  async storedVersion(invoiceId: string): Promise<{ version: string; sha256: string } | null> {
    return this.prisma.documentPdf.findUnique({ where: { invoiceId }, select: { version: true, sha256: true } });
  }

  /** Stores (or replaces) the invoice's PDF; returns its sha-256 (the ETag). */
  async save(input: NewStoredPdf): Promise<string> {
    const sha256 = createHash('sha256').update(input.pdf).digest('hex');
    const pdf = new Uint8Array(input.pdf.buffer, input.pdf.byteOffset, input.pdf.byteLength) as Uint8Array<ArrayBuffer>;
    const fields = {
      version: input.version,
      pdf,
      sha256,
      pageCount: input.pageCount,
      renderMs: Math.round(input.renderMs),
      renderedAt: new Date(),
    };
    await this.prisma.documentPdf.upsert({
      where: { invoiceId: input.invoiceId },
      create: { invoiceId: input.invoiceId, companyId: input.companyId, ...fields },
      update: fields,
    });
    return sha256;
  }
}
