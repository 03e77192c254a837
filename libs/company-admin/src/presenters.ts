// The JSON shapes operators see, shared by the admin API and the CLI (snake_case, and the address in the invoice
// request's vocabulary: neighborhood, city, zip_code).
import type { ApiKeyRecord, CertificateRecord, CompanyRecord } from './ports.js';

export function presentCompany(company: CompanyRecord) {
  return {
    id: company.id,
    tax_id: company.taxId,
    legal_name: company.legalName,
    trade_name: company.tradeName,
    tax_regime: company.taxRegime,
    state_registration: company.stateRegistration,
    municipal_registration: company.municipalRegistration,
    address: {
      street: company.street,
      number: company.number,
      complement: company.complement,
      neighborhood: company.district,
      city: company.cityName,
      state: company.state,
      zip_code: company.postalCode,
      city_code: company.cityCode,
    },
    phone: company.phone,
    email: company.email,
    default_series: { nfe: company.defaultNfeSeries, nfse: company.defaultNfseSeries },
    default_nfse_service_code: company.defaultNfseServiceCode,
    approximate_taxes: company.approximateTaxes ?? null,
    plan: {
      name: company.planName,
      production_quota: company.productionQuota,
      overage_price: company.overagePrice === null ? null : company.overagePrice.toString(),
    },
    created_at: company.createdAt.toISOString(),
    updated_at: company.updatedAt.toISOString(),
  };
}

/** `trust` and `trust_note` only in the answer to an upload, where they were decided. */
export function presentCertificate(certificate: CertificateRecord & { trust?: 'icp_brasil' | 'test_ca'; trustNote?: string }) {
  return {
    id: certificate.id,
    company_id: certificate.companyId,
    subject_tax_id: certificate.subjectTaxId,
    subject_name: certificate.subjectName,
    issuer_name: certificate.issuerName,
    serial_number: certificate.serialNumber,
    not_before: certificate.notBefore.toISOString(),
    not_after: certificate.notAfter.toISOString(),
    uploaded_at: certificate.createdAt.toISOString(),
    ...(certificate.trust && { trust: certificate.trust, trust_note: certificate.trustNote ?? null }),
  };
}

/** Never includes the secret: it exists only in the response that created the key. */
export function presentApiKey(apiKey: ApiKeyRecord) {
  return {
    id: apiKey.id,
    company_id: apiKey.companyId,
    name: apiKey.name,
    environment: apiKey.environment,
    context: apiKey.context,
    prefix: apiKey.prefix,
    created_at: apiKey.createdAt.toISOString(),
    last_used_at: apiKey.lastUsedAt?.toISOString() ?? null,
    revoked_at: apiKey.revokedAt?.toISOString() ?? null,
  };
}

export type CompanyView = ReturnType<typeof presentCompany>;
export type CertificateView = ReturnType<typeof presentCertificate>;
export type ApiKeyView = ReturnType<typeof presentApiKey>;
