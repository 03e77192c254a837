-- Received invoices (issue 18): documents, their events, and the distribution cursor with the authority's back-off.
-- CreateTable
CREATE TABLE "received_documents" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "document_type" "DocumentType" NOT NULL,
    "access_key" VARCHAR(50) NOT NULL,
    "issuer_tax_id" VARCHAR(14) NOT NULL,
    "issuer_name" VARCHAR(150),
    "issued_at" TIMESTAMPTZ(3),
    "authorized_at" TIMESTAMPTZ(3),
    "total_value" DECIMAL(15,2),
    "protocol" VARCHAR(50),
    "situation" VARCHAR(12) NOT NULL,
    "summary_xml" TEXT,
    "summary_nsu" VARCHAR(20),
    "full_xml" TEXT,
    "full_nsu" VARCHAR(20),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "received_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "received_events" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "access_key" VARCHAR(50) NOT NULL,
    "document_id" UUID,
    "event_type" VARCHAR(6) NOT NULL,
    "sequence" INTEGER NOT NULL,
    "description" VARCHAR(60),
    "author_tax_id" VARCHAR(14),
    "occurred_at" TIMESTAMPTZ(3),
    "protocol" VARCHAR(50),
    "xml" TEXT NOT NULL,
    "nsu" VARCHAR(20) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "received_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "received_sync_states" (
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "channel" "DocumentType" NOT NULL,
    "last_nsu" VARCHAR(20) NOT NULL DEFAULT '000000000000000',
    "max_nsu" VARCHAR(20),
    "last_query_at" TIMESTAMPTZ(3),
    "last_code" VARCHAR(40),
    "last_message" TEXT,
    "blocked_until" TIMESTAMPTZ(3),
    "blocked_code" VARCHAR(40),
    "blocked_reason" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "received_sync_states_pkey" PRIMARY KEY ("company_id","environment","channel")
);

-- CreateIndex
CREATE INDEX "received_documents_company_id_environment_issued_at_idx" ON "received_documents"("company_id", "environment", "issued_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "received_documents_company_id_environment_access_key_key" ON "received_documents"("company_id", "environment", "access_key");

-- CreateIndex
CREATE INDEX "received_events_document_id_idx" ON "received_events"("document_id");

-- CreateIndex
CREATE UNIQUE INDEX "received_events_company_id_environment_access_key_event_typ_key" ON "received_events"("company_id", "environment", "access_key", "event_type", "sequence");

-- AddForeignKey
ALTER TABLE "received_documents" ADD CONSTRAINT "received_documents_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "received_events" ADD CONSTRAINT "received_events_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "received_events" ADD CONSTRAINT "received_events_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "received_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "received_sync_states" ADD CONSTRAINT "received_sync_states_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;


