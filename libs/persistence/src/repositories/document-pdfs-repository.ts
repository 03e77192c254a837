import { createHash } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { DocumentTypeName, EnvironmentName, InvoiceStatusName } from './issuance-records.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';
import { isUuid } from '../uuid.js';

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

/** The lookup statement's row: the invoice's fields as PdfLookup names them, and the stored PDF's columns (or nulls). */
type LookupRow = Omit<PdfLookup, 'invoiceId' | 'stored'> & {
  id: string;
  version: string | null;
  sha256: string | null;
  pdf: Uint8Array | null;
  pageCount: number | null;
  renderedAt: Date | null;
};

type StoredRow = Omit<StoredPdf, 'pdf'> & { pdf: Uint8Array };

const STORED_COLUMNS =
  'invoice_id AS "invoiceId", company_id AS "companyId", version, pdf, sha256, page_count AS "pageCount", rendered_at AS "renderedAt"';

const lookupStatement = (match: string) => `
  SELECT i.id, i.company_id AS "companyId", i.environment::text AS environment, i.document_type::text AS "documentType",
         i.status::text AS status, i.updated_at AS "updatedAt", i.access_key AS "accessKey",
         i.authorized_xml IS NOT NULL AS "hasAuthorizedXml",
         d.version, d.sha256, d.pdf, d.page_count AS "pageCount", d.rendered_at AS "renderedAt"
  FROM invoices i LEFT JOIN document_pdfs d ON d.invoice_id = i.id
  WHERE i.company_id = $1::uuid AND ${match}
    AND i.environment = $3::"Environment" AND i.document_type = $4::"DocumentType"
  ORDER BY i.created_at DESC
  LIMIT 1`;

/**
 * The lookup's statement for each kind of key, so each uses its index: the primary key, or (company_id, access_key);
 * a DPS id (an NFS-e before authorization) may also sit in dps_id, which only that case reads.
 */
const LOOKUP_STATEMENTS = {
  id: lookupStatement('i.id = $2::uuid'),
  accessKey: lookupStatement('i.access_key = $2'),
  dpsId: lookupStatement('(i.access_key = $2 OR i.dps_id = $2)'),
} as const;

/** bytea as pg gives it (a Buffer) or as Prisma's raw queries do (a Uint8Array), as a Buffer without a copy. */
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export interface NewStoredPdf {
  invoiceId: string;
  companyId: string;
  version: string;
  pdf: Uint8Array;
  pageCount: number;
  renderMs: number;
}

/** What the render job reads of an invoice (loadForRender). */
export interface RenderSubject {
  invoiceId: string;
  companyId: string;
  documentType: DocumentTypeName;
  status: InvoiceStatusName;
  updatedAt: Date;
  authorizedXml: string | null;
  /** The PDF stored for the invoice, of whatever version. */
  stored: { version: string; sha256: string } | null;
  /** The registered correction letter (CC-e) with the highest sequence; null when there is none. */
  latestCorrection: { sequence: number; text: string; protocol: string | null; registeredAt: Date | null } | null;
}

type RenderSubjectRow = Omit<RenderSubject, 'stored' | 'latestCorrection'> & {
  storedVersion: string | null;
  storedSha256: string | null;
  correctionSequence: number | null;
  correctionText: string | null;
  correctionProtocol: string | null;
  correctionRegisteredAt: Date | null;
};

const LOAD_FOR_RENDER = `
  SELECT i.id AS "invoiceId", i.company_id AS "companyId", i.document_type::text AS "documentType",
         i.status::text AS status, i.updated_at AS "updatedAt", i.authorized_xml AS "authorizedXml",
         d.version AS "storedVersion", d.sha256 AS "storedSha256",
         c.sequence AS "correctionSequence", c.text AS "correctionText", c.protocol AS "correctionProtocol",
         c.registered_at AS "correctionRegisteredAt"
  FROM invoices i
  LEFT JOIN document_pdfs d ON d.invoice_id = i.id
  LEFT JOIN LATERAL (
    SELECT a.sequence, a.text, a.protocol, a.registered_at FROM amendments a
    WHERE a.invoice_id = i.id AND a.kind = 'correction' AND a.status = 'registered'
    ORDER BY a.sequence DESC LIMIT 1
  ) c ON true
  WHERE i.id = $1::uuid`;

/**
 * The rendered DANFE / DANFSe, one row per invoice (the latest version). Reads are scoped to the company: the PDF of
 * another company's invoice is never returned, whatever id is asked for. Plain SQL on the caller's runner (a pg pool's
 * prepared statements in the gateway and the renderer): the renderer then never starts Prisma's query compiler, about
 * 55 MB of its memory (libs/rendering/README.md "Performance").
 */
export class DocumentPdfsRepository {
  private readonly sql: SqlRunner;

  constructor(prisma: PrismaClient, sql?: SqlRunner) {
    this.sql = sql ?? prismaSqlRunner(prisma);
  }

  /**
   * The company's invoice of that environment and document type, by id or by access key (or DPS id), with its stored
   * PDF, in one statement and without the XML or the request: the cached path of the PDF route is this one query.
   */
  async lookup(
    scope: { companyId: string; environment: EnvironmentName; documentType: DocumentTypeName },
    key: { id: string } | { accessKey: string },
  ): Promise<PdfLookup | null> {
    if (!isUuid(scope.companyId) || ('id' in key && !isUuid(key.id))) return null;
    const kind = 'id' in key ? 'id' : key.accessKey.startsWith('DPS') ? 'dpsId' : 'accessKey';
    const [row] = await this.sql.query<LookupRow>(`talao_pdf_lookup_${kind}`, LOOKUP_STATEMENTS[kind], [
      scope.companyId,
      'id' in key ? key.id : key.accessKey,
      scope.environment,
      scope.documentType,
    ]);
    if (!row) return null;
    const { version, sha256, pdf, pageCount, renderedAt, id, ...invoice } = row;
    const stored: StoredPdf | null =
      version && sha256 && pdf
        ? {
            invoiceId: id,
            companyId: row.companyId,
            version,
            pdf: asBuffer(pdf),
            sha256,
            pageCount: pageCount ?? 0,
            renderedAt: renderedAt ?? new Date(0),
          }
        : null;
    return { invoiceId: id, ...invoice, stored };
  }

  /** The company's stored PDF for the invoice when it is of `version`; null when absent or of another version. */
  async find(companyId: string, invoiceId: string, version: string): Promise<StoredPdf | null> {
    if (!isUuid(companyId) || !isUuid(invoiceId)) return null;
    const [row] = await this.sql.query<StoredRow>(
      'talao_pdf_find',
      `SELECT ${STORED_COLUMNS} FROM document_pdfs WHERE invoice_id = $1::uuid AND company_id = $2::uuid AND version = $3`,
      [invoiceId, companyId, version],
    );
    return row ? { ...row, pdf: asBuffer(row.pdf) } : null;
  }

  /**
   * The render job's one read: what decides the PDF's version and content (status, updated_at, the authorized XML),
   * the version already stored (without its bytes: a render already done is skipped) and the latest registered
   * correction letter (each replaces the previous, so only the highest sequence is printed). Not the request, the
   * signed XML or the amounts, which the printed document does not need.
   */
  async loadForRender(invoiceId: string): Promise<RenderSubject | null> {
    if (!isUuid(invoiceId)) return null;
    const [row] = await this.sql.query<RenderSubjectRow>('talao_pdf_load_for_render', LOAD_FOR_RENDER, [invoiceId]);
    if (!row) return null;
    const { storedVersion, storedSha256, correctionSequence, correctionText, correctionProtocol, correctionRegisteredAt, ...invoice } = row;
    return {
      ...invoice,
      stored: storedVersion && storedSha256 ? { version: storedVersion, sha256: storedSha256 } : null,
      latestCorrection:
        correctionSequence !== null && correctionText !== null
          ? { sequence: correctionSequence, text: correctionText, protocol: correctionProtocol, registeredAt: correctionRegisteredAt }
          : null,
    };
  }

  /** Stores (or replaces) the invoice's PDF; returns its sha-256 (the ETag). */
  async save(input: NewStoredPdf): Promise<string> {
    const sha256 = createHash('sha256').update(input.pdf).digest('hex');
    await this.sql.query(
      'talao_pdf_save',
      `INSERT INTO document_pdfs (invoice_id, company_id, version, pdf, sha256, page_count, render_ms, rendered_at)
       VALUES ($1::uuid, $2::uuid, $3, $4::bytea, $5, $6::int, $7::int, now())
       ON CONFLICT (invoice_id) DO UPDATE SET version = EXCLUDED.version, pdf = EXCLUDED.pdf, sha256 = EXCLUDED.sha256,
         page_count = EXCLUDED.page_count, render_ms = EXCLUDED.render_ms, rendered_at = EXCLUDED.rendered_at`,
      [input.invoiceId, input.companyId, input.version, asBuffer(input.pdf), sha256, input.pageCount, Math.round(input.renderMs)],
    );
    return sha256;
  }
}
