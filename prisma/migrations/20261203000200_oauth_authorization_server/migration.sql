-- The OAuth 2.1 authorization server (issue 20): the provider's records (ids hashed, see schema.prisma) and its
-- signing key, sealed with the certificate vault.

-- CreateTable
CREATE TABLE "oauth_records" (
    "model" VARCHAR(40) NOT NULL,
    "id" VARCHAR(255) NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" VARCHAR(255),
    "uid" VARCHAR(255),
    "company_id" UUID,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("model","id")
);

-- CreateTable
CREATE TABLE "oauth_signing_keys" (
    "kid" VARCHAR(64) NOT NULL,
    "sealed_jwk" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");

-- CreateIndex
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");

-- CreateIndex
CREATE INDEX "oauth_records_company_id_idx" ON "oauth_records"("company_id");

-- CreateIndex
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");
