-- The invalidation that took an NF-e's number before the document was sent (reserved before the range was filed,
-- inserted after): the invoice ends `failed` and the gateway answers it 409 NUMBER_INVALIDATED. It used to be
-- recognised by its status message; invoices that ended so before this column existed get it from that message.
ALTER TABLE "invoices" ADD COLUMN "invalidated_by_id" UUID;
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_invalidated_by_id_fkey" FOREIGN KEY ("invalidated_by_id")
  REFERENCES "invalidations"("id") ON DELETE SET NULL ON UPDATE CASCADE;
UPDATE "invoices" i
SET "invalidated_by_id" = v."id"
FROM "invalidations" v
WHERE i."status" = 'failed' AND i."status_code" IS NULL AND v."company_id" = i."company_id"
  AND i."status_message" ~ '^Number \d+ of series \d+ was invalidated \(invalidation [0-9a-f-]{36}\) before the document was sent$'
  AND v."id"::text = substring(i."status_message" from '\(invalidation ([0-9a-f-]{36})\)');
