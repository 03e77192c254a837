-- The approximate tax burden of a company's services (Lei 12.741/2012), in percent: { federal, state, municipal } as
-- decimal text. The national NFS-e refuses a DPS without it from a provider outside the Simples Nacional (E0713) and
-- refuses "not informed" (indTotTrib) from an ME/EPP in it (E0712); only a MEI may leave it out.
ALTER TABLE "companies" ADD COLUMN "approximate_taxes" JSONB;
