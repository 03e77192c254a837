-- Amendments (issue 16): cancellations and correction letters filed on issued documents, the link from each exchange
-- of such an event to its amendment (submissions.amendment_id; null for authorizations), and NF-e numbering
-- invalidations with their own exchanges.
-- AlterTable
ALTER TABLE "submissions" ADD COLUMN     "amendment_id" UUID;

-- CreateTable
CREATE TABLE "amendments" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "invoice_id" UUID NOT NULL,
    "kind" VARCHAR(20) NOT NULL,
    "sequence" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "protocol" VARCHAR(100),
    "status_code" VARCHAR(10),
    "status_message" TEXT,
    "registered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "amendments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invalidations" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "series" INTEGER NOT NULL,
    "number_start" BIGINT NOT NULL,
    "number_end" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "protocol" VARCHAR(50),
    "status_code" VARCHAR(10),
    "status_message" TEXT,
    "registered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invalidations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invalidation_submissions" (
    "id" UUID NOT NULL,
    "invalidation_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "operation" VARCHAR(40) NOT NULL,
    "endpoint" TEXT NOT NULL,
    "request_body" TEXT NOT NULL,
    "response_body" TEXT,
    "http_status" INTEGER,
    "outcome" VARCHAR(20),
    "status_code" VARCHAR(10),
    "status_message" TEXT,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answered_at" TIMESTAMPTZ(3),

    CONSTRAINT "invalidation_submissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "amendments_company_id_environment_created_at_idx" ON "amendments"("company_id", "environment", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "amendments_invoice_id_kind_sequence_key" ON "amendments"("invoice_id", "kind", "sequence");

-- CreateIndex
CREATE INDEX "invalidations_company_id_environment_series_number_start_idx" ON "invalidations"("company_id", "environment", "series", "number_start");

-- CreateIndex
CREATE INDEX "invalidations_company_id_environment_created_at_idx" ON "invalidations"("company_id", "environment", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "invalidation_submissions_invalidation_id_attempt_key" ON "invalidation_submissions"("invalidation_id", "attempt");

-- CreateIndex
CREATE INDEX "submissions_amendment_id_idx" ON "submissions"("amendment_id");

-- AddForeignKey
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_amendment_id_fkey" FOREIGN KEY ("amendment_id") REFERENCES "amendments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "amendments" ADD CONSTRAINT "amendments_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invalidations" ADD CONSTRAINT "invalidations_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invalidation_submissions" ADD CONSTRAINT "invalidation_submissions_invalidation_id_fkey" FOREIGN KEY ("invalidation_id") REFERENCES "invalidations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


