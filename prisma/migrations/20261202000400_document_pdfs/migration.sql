-- The printed representation (DANFE / DANFSe) of an invoice, rendered once per version and kept (one row per
-- invoice; a new version replaces it). bytea: see the model's comment in schema.prisma.

-- CreateTable
CREATE TABLE "document_pdfs" (
    "invoice_id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "version" VARCHAR(80) NOT NULL,
    "pdf" BYTEA NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "page_count" INTEGER NOT NULL,
    "render_ms" INTEGER NOT NULL,
    "rendered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_pdfs_pkey" PRIMARY KEY ("invoice_id")
);

-- PDFs are already compressed: TOAST's pglz would spend CPU for nothing; stored out of line, uncompressed.
ALTER TABLE "document_pdfs" ALTER COLUMN "pdf" SET STORAGE EXTERNAL;

-- AddForeignKey
ALTER TABLE "document_pdfs" ADD CONSTRAINT "document_pdfs_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
