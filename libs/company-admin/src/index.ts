// Operator use cases over the repositories, shared by the admin HTTP API and the CLI. No HTTP here: failures are
// CompanyAdminError with a kind (validation / conflict / not_found) that each delivery maps to its own language.
export { CompanyAdminError, type CompanyAdminErrorKind, type FieldProblem } from './errors.js';
export {
  createCompanyInputSchema,
  parseCreateCompanyInput,
  updateCompanyInputSchema,
  type CompanyChanges,
  type CreateCompanyInput,
  type NewCompany,
  type UpdateCompanyInput,
} from './company-input.js';
export { createCompany, getCompany, updateCompany } from './create-company.js';
export { setCertificate, setCertificateInputSchema, type SetCertificateInput, type UploadedCertificate } from './set-certificate.js';
/** The CA certificates of a trust bundle's PEM text (for CompanyAdminPorts.certificateTrustAnchorsPem); throws when unusable. */
export { parseCertificateBundle as parseCertificateTrustBundle } from '@talao/xml-signing/trust';
export {
  createApiKey,
  createApiKeyInputSchema,
  listApiKeys,
  revokeApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
} from './api-keys.js';
export {
  presentApiKey,
  presentCertificate,
  presentCompany,
  type ApiKeyView,
  type CertificateView,
  type CompanyView,
} from './presenters.js';
export type * from './ports.js';
