// PKCS#12 (A1) loading and XML-DSig for the NF-e family and the NFS-e Nacional DPS. See ../README.md.
export { loadPkcs12, type A1Certificate } from './pkcs12/load-pkcs12.js';
export { CertificateError, type CertificateErrorCode } from './pkcs12/certificate-error.js';
export { extractTaxId, ICP_BRASIL_OID } from './pkcs12/icp-brasil-tax-id.js';
