-- Recipient manifestation on received NF-e (issue 18): the event rows and their exchanges with the authorizer.
-- CreateTable
CREATE TABLE "received_manifestations" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "document_id" UUID NOT NULL,
    "event_type" VARCHAR(6) NOT NULL,
    "sequence" INTEGER NOT NULL,
    "justification" TEXT,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "protocol" VARCHAR(50),
    "status_code" VARCHAR(10),
    "status_message" TEXT,
    "registered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "received_manifestations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "received_manifestation_transmissions" (
    "id" UUID NOT NULL,
    "manifestation_id" UUID NOT NULL,
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

    CONSTRAINT "received_manifestation_transmissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "received_manifestations_status_created_at_idx" ON "received_manifestations"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "received_manifestations_document_id_event_type_sequence_key" ON "received_manifestations"("document_id", "event_type", "sequence");

-- CreateIndex
CREATE INDEX "received_manifestation_transmissions_manifestation_id_sent__idx" ON "received_manifestation_transmissions"("manifestation_id", "sent_at");

-- AddForeignKey
ALTER TABLE "received_manifestations" ADD CONSTRAINT "received_manifestations_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "received_manifestations" ADD CONSTRAINT "received_manifestations_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "received_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "received_manifestation_transmissions" ADD CONSTRAINT "received_manifestation_transmissions_manifestation_id_fkey" FOREIGN KEY ("manifestation_id") REFERENCES "received_manifestations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


