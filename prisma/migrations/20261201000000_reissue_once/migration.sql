-- A rejected or failed attempt is reissued once: at most one invoice may name it in reissue_of_id. The unique index is
-- what makes two concurrent reissues of one attempt produce one invoice (the second insert conflicts), where the
-- status check before the insert let each of them through.
--
-- Before this index, one attempt could be reissued several times (each an authorized document). Those later reissues
-- stay what they are, real documents, but lose the link: the earliest reissue of each attempt keeps it.
DO $$
DECLARE
  unlinked integer;
BEGIN
  WITH ranked AS (
    SELECT id, row_number() OVER (PARTITION BY reissue_of_id ORDER BY created_at, id) AS position
    FROM "invoices"
    WHERE reissue_of_id IS NOT NULL
  )
  UPDATE "invoices" SET reissue_of_id = NULL
  FROM ranked
  WHERE "invoices".id = ranked.id AND ranked.position > 1;
  GET DIAGNOSTICS unlinked = ROW_COUNT;
  IF unlinked > 0 THEN
    RAISE NOTICE 'reissue_once: % later reissue(s) of an already reissued attempt were unlinked', unlinked;
  END IF;
END $$;

-- CreateIndex
CREATE UNIQUE INDEX "invoices_reissue_of_id_key" ON "invoices"("reissue_of_id");
