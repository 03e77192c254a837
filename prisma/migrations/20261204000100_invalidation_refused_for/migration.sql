-- Why the service refused a range itself, without the authorizer (its code stays null): `numbers_in_use` when the
-- invalidate job found, before its first transmission, a number of the range that reached the authorizer. The gateway
-- answers that refusal as the filing's own 409; it used to recognise it by the start of status_message.
ALTER TABLE "invalidations" ADD COLUMN "refused_for" VARCHAR(30);
