-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('homologation', 'production');

-- CreateEnum
CREATE TYPE "TaxRegime" AS ENUM ('simples_nacional', 'simples_nacional_excess', 'normal', 'mei');

-- CreateEnum
CREATE TYPE "DocumentType" AS ENUM ('nfe', 'nfse');

-- CreateEnum
CREATE TYPE "ApiKeyContext" AS ENUM ('sdk', 'api');

-- CreateEnum
CREATE TYPE "InvoiceStatus" AS ENUM ('processing', 'issued', 'rejected', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "companies" (
    "id" UUID NOT NULL,
    "tax_id" VARCHAR(14) NOT NULL,
    "state_registration" VARCHAR(14),
    "municipal_registration" VARCHAR(15),
    "legal_name" VARCHAR(60) NOT NULL,
    "trade_name" VARCHAR(60),
    "tax_regime" "TaxRegime",
    "street" VARCHAR(60),
    "number" VARCHAR(60),
    "complement" VARCHAR(60),
    "district" VARCHAR(60),
    "city_code" CHAR(7) NOT NULL,
    "city_name" VARCHAR(60) NOT NULL,
    "state" CHAR(2) NOT NULL,
    "postal_code" CHAR(8),
    "phone" VARCHAR(14),
    "email" VARCHAR(60),
    "default_nfe_series" INTEGER NOT NULL DEFAULT 1,
    "default_nfse_series" INTEGER NOT NULL DEFAULT 1,
    "default_nfse_service_code" VARCHAR(8),
    "plan_name" VARCHAR(40) NOT NULL DEFAULT 'trial',
    "production_quota" INTEGER DEFAULT 50,
    "overage_price" DECIMAL(12,4),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "companies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certificates" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "pkcs12_encrypted" BYTEA NOT NULL,
    "password_encrypted" BYTEA NOT NULL,
    "key_version" INTEGER NOT NULL DEFAULT 1,
    "subject_tax_id" VARCHAR(14) NOT NULL,
    "subject_name" TEXT NOT NULL,
    "issuer_name" TEXT NOT NULL,
    "serial_number" TEXT NOT NULL,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "not_after" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replaced_at" TIMESTAMPTZ(3),

    CONSTRAINT "certificates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "environment" "Environment" NOT NULL,
    "context" "ApiKeyContext" NOT NULL DEFAULT 'sdk',
    "prefix" VARCHAR(32) NOT NULL,
    "secret_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "number_sequences" (
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "document_type" "DocumentType" NOT NULL,
    "series" INTEGER NOT NULL,
    "next_number" BIGINT NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "number_sequences_pkey" PRIMARY KEY ("company_id","environment","document_type","series")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "document_type" "DocumentType" NOT NULL,
    "status" "InvoiceStatus" NOT NULL DEFAULT 'processing',
    "series" INTEGER NOT NULL,
    "number" BIGINT NOT NULL,
    "access_key" VARCHAR(50),
    "dps_id" VARCHAR(45),
    "protocol" VARCHAR(50),
    "request" JSONB NOT NULL,
    "total_amount" DECIMAL(15,2) NOT NULL,
    "contingency" BOOLEAN NOT NULL DEFAULT false,
    "status_code" VARCHAR(10),
    "status_message" TEXT,
    "authorized_xml" TEXT,
    "reissue_of_id" UUID,
    "issued_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "submissions" (
    "id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
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

    CONSTRAINT "submissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "operation" VARCHAR(60) NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("company_id","environment","key")
);

-- CreateTable
CREATE TABLE "usage_entries" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "invoice_id" UUID NOT NULL,
    "document_type" "DocumentType" NOT NULL,
    "credits" INTEGER NOT NULL DEFAULT 1,
    "unit_price" DECIMAL(12,4),
    "period" CHAR(7) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" VARCHAR(60) NOT NULL,
    "aggregate_id" UUID NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "companies_tax_id_key" ON "companies"("tax_id");

-- CreateIndex
CREATE INDEX "certificates_company_id_replaced_at_idx" ON "certificates"("company_id", "replaced_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE INDEX "api_keys_company_id_revoked_at_idx" ON "api_keys"("company_id", "revoked_at");

-- CreateIndex
CREATE INDEX "invoices_company_id_environment_document_type_status_create_idx" ON "invoices"("company_id", "environment", "document_type", "status", "created_at");

-- CreateIndex
CREATE INDEX "invoices_company_id_access_key_idx" ON "invoices"("company_id", "access_key");

-- CreateIndex
CREATE INDEX "invoices_status_updated_at_idx" ON "invoices"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_company_id_environment_document_type_series_number_key" ON "invoices"("company_id", "environment", "document_type", "series", "number");

-- CreateIndex
CREATE UNIQUE INDEX "submissions_invoice_id_attempt_key" ON "submissions"("invoice_id", "attempt");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "usage_entries_invoice_id_key" ON "usage_entries"("invoice_id");

-- CreateIndex
CREATE INDEX "usage_entries_company_id_environment_period_idx" ON "usage_entries"("company_id", "environment", "period");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "number_sequences" ADD CONSTRAINT "number_sequences_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_entries" ADD CONSTRAINT "usage_entries_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;
