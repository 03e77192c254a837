// The configuration check of the issuer: what a company must have before it can issue a document of a type. Every
// missing item is named at once, so an operator fixes the profile in one go.
import type { ApproximateTaxes, IssuerProfile, TaxRegime } from '@talao/fiscal-model';
import type { CertificateMetadataView, DocumentTypeName, IssuingCompany } from '../ports.js';

const TAX_REGIMES: readonly string[] = ['simples_nacional', 'simples_nacional_excess', 'normal', 'mei'];

/** Problems that stop building an IssuerProfile at all (validation needs the regime and the address). */
export function profileProblems(company: IssuingCompany): string[] {
  const missing: string[] = [];
  if (!company.taxRegime || !TAX_REGIMES.includes(company.taxRegime)) missing.push('tax regime');
  const address: string[] = [];
  if (!company.street) address.push('street');
  if (!company.number) address.push('number');
  // Named as the admin API names them (address.neighborhood, address.zip_code).
  if (!company.district) address.push('neighborhood');
  if (!company.postalCode) address.push('zip_code');
  if (address.length > 0) missing.push(`address (${address.join(', ')})`);
  return missing;
}

/** Problems specific to the document type and the certificate, checked after the request is validated. */
export function issuingProblems(
  company: IssuingCompany,
  documentType: DocumentTypeName,
  certificate: CertificateMetadataView | null,
  now: Date,
): string[] {
  const missing: string[] = [];
  if (!certificate) missing.push('certificate (no A1 certificate uploaded)');
  else if (certificate.notAfter.getTime() <= now.getTime()) missing.push(`certificate (expired on ${certificate.notAfter.toISOString()})`);
  else if (certificate.notBefore.getTime() > now.getTime())
    missing.push(`certificate (valid only from ${certificate.notBefore.toISOString()})`);
  else if (certificate.subjectTaxId !== company.taxId) missing.push("certificate (its tax id differs from the company's)");
  if (documentType === 'nfe' && !company.stateRegistration) missing.push('state registration');
  if (documentType === 'nfse' && !company.municipalRegistration) missing.push('municipal registration');
  // The national environment refuses a DPS without it from anyone but a MEI (E0712, E0713).
  if (documentType === 'nfse' && company.taxRegime !== 'mei' && !approximateTaxesOf(company))
    missing.push('approximate_taxes (Lei 12.741/2012 percentages: federal, state, municipal)');
  return missing;
}

const PERCENT = /^\d{1,3}\.\d{2}$/;

/** The company's stored approximate taxes, when they have the shape the admin API writes. */
function approximateTaxesOf(company: IssuingCompany): ApproximateTaxes | undefined {
  const stored = company.approximateTaxes as Partial<Record<keyof ApproximateTaxes, unknown>> | null;
  if (!stored || typeof stored !== 'object') return undefined;
  const { federal, state, municipal } = stored;
  const valid = [federal, state, municipal].every((value) => typeof value === 'string' && PERCENT.test(value));
  return valid ? { federal: federal as string, state: state as string, municipal: municipal as string } : undefined;
}

/** The fiscal-model view of the company; call only when profileProblems is empty. */
export function issuerProfileOf(company: IssuingCompany): IssuerProfile {
  const approximate = approximateTaxesOf(company);
  return {
    taxId: company.taxId,
    legalName: company.legalName,
    ...(company.tradeName ? { tradeName: company.tradeName } : {}),
    ...(company.stateRegistration ? { stateRegistration: company.stateRegistration } : {}),
    ...(company.municipalRegistration ? { municipalRegistration: company.municipalRegistration } : {}),
    taxRegime: company.taxRegime as TaxRegime,
    address: {
      street: company.street!,
      number: company.number!,
      ...(company.complement ? { complement: company.complement } : {}),
      district: company.district!,
      cityCode: company.cityCode,
      state: company.state,
      postalCode: company.postalCode!,
      ...(company.phone ? { phone: company.phone } : {}),
    },
    ...(company.email ? { email: company.email } : {}),
    ...(company.defaultNfseServiceCode ? { defaultServiceCode: company.defaultNfseServiceCode } : {}),
    ...(approximate ? { approximateTaxes: approximate } : {}),
  };
}
