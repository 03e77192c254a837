-- Storage settings of the issuance hot path (measured per authorized NF-e; docs/architecture.md, Persistence).
-- Prisma's schema language has no words for these: they live here only, and `migrate diff` does not see them.

-- The exact bytes of every exchange (about 6.5 KB of SOAP) and the authorized XML (6.5 KB) are compressed with lz4
-- instead of pglz: pglz spent 100–150 µs of a backend's CPU per document on these (two per NF-e), lz4 a fifth of that,
-- for 3% more stored bytes (4.52 KB instead of 4.38 KB each). The invoice's `request` stays pglz: it rides inline in
-- the invoice row, which the final update rewrites, so its bigger lz4 form would cost WAL twice (+190 B each time).
-- Applies to values written from now on; older values keep the method they were written with.
ALTER TABLE "submissions" ALTER COLUMN "request_body" SET COMPRESSION lz4, ALTER COLUMN "response_body" SET COMPRESSION lz4;
ALTER TABLE "invoices" ALTER COLUMN "authorized_xml" SET COMPRESSION lz4;

-- A submission row is inserted small (its request body is out of line) and updated once with the answer (about 1 KB).
-- Room left on each page keeps that update on the same page with no indexed column changed, i.e. HOT: no new entries
-- in its two indexes. Measured: HOT updates 86% → 99.8%.
ALTER TABLE "submissions" SET (fillfactor = 70);
