-- Prisma's schema names this index (`@@index([updatedAt], map: …)`) but cannot express its predicate; `migrate diff`
-- does not compare predicates.
-- The sweeper looks only for invoices still `processing`: a partial index holds just those rows, so the final update
-- (which moves the row out of `processing`) adds no entry to it — one index insertion less per finished invoice — and
-- the index stays as small as the in-flight set instead of growing with every invoice ever issued.
DROP INDEX "invoices_status_updated_at_idx";
CREATE INDEX "invoices_processing_updated_at_idx" ON "invoices"("updated_at") WHERE "status" = 'processing';
