// What the use cases need from persistence, stated structurally: @talao/persistence's repositories satisfy these,
// and the use cases stay testable without HTTP. Field names follow prisma/schema.prisma.

import type { CertificateMetadata, Company } from '@talao/persistence';
import type { CompanyChanges, NewCompany } from './company-input.js';

export type { CertificateMetadata };

export type EnvironmentName = 'homologation' | 'production';
export type ApiKeyContextName = 'sdk' | 'api';

export type CompanyRecord = Company;

export interface ApiKeyRecord {
  id: string;
  companyId: string;
  name: string;
  environment: EnvironmentName;
  context: ApiKeyContextName;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface CertificateRecord extends CertificateMetadata {
  id: string;
  companyId: string;
  createdAt: Date;
}

/** The persisted fields of a new company (the plan flattened into its columns). */
export type NewCompanyData = Omit<NewCompany, 'plan'> & {
  planName?: string;
  productionQuota?: number | null;
  overagePrice?: string | null;
};

export interface CompaniesPort {
  /** Throws an error named CompanyTaxIdTakenError when the tax id is taken (a concurrent creation). */
  create(data: NewCompanyData): Promise<CompanyRecord>;
  /** null when no company has that id. */
  update(id: string, changes: CompanyChanges): Promise<CompanyRecord | null>;
  findById(id: string): Promise<CompanyRecord | null>;
  findByTaxId(taxId: string): Promise<CompanyRecord | null>;
}

export interface ApiKeysPort {
  create(input: { companyId: string; name: string; environment: EnvironmentName; context: ApiKeyContextName }): Promise<{
    apiKey: ApiKeyRecord;
    secret: string;
  }>;
  /** False when the key is unknown or already revoked. */
  revoke(id: string): Promise<boolean>;
  /** Newest first, revoked keys included. */
  listForCompany(companyId: string): Promise<ApiKeyRecord[]>;
}

export interface CertificatesPort {
  /** Encrypts and stores the certificate as the company's active one; the previous one is marked replaced. */
  store(companyId: string, input: { pkcs12: Buffer; password: string; metadata: CertificateMetadata }): Promise<{ id: string }>;
}

export interface CompanyAdminPorts {
  readonly companies: CompaniesPort;
  readonly apiKeys: ApiKeysPort;
  readonly certificates: CertificatesPort;
  /**
   * The ICP-Brasil CA certificates (PEM) an uploaded A1 must chain to (CERTIFICATE_TRUST_BUNDLE_FILE). Absent or
   * empty: a homologation stack, which accepts certificates of the test CA (@talao/icp-test-ca) only.
   */
  readonly certificateTrustAnchorsPem?: readonly string[];
  /** Injected so tests can place "now" before or after a certificate's validity. */
  readonly now?: () => Date;
}
