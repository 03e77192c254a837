import { createHash } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';

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
