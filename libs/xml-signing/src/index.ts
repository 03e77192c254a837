// PKCS#12 (A1) loading and XML-DSig for the NF-e family and the NFS-e Nacional DPS. See ../README.md.
export { loadPkcs12, type A1Certificate } from './pkcs12/load-pkcs12.js';
export { CertificateError, type CertificateErrorCode } from './pkcs12/certificate-error.js';
export { extractTaxId, ICP_BRASIL_OID } from './pkcs12/icp-brasil-tax-id.js';
export { createSigner, type XmlSigner } from './signing/create-signer.js';
export { SignatureInputError, locateCanonicalElement, type LocatedElement } from './signing/canonical-element.js';
export { NFE_FAMILY_PROFILE, NFSE_NACIONAL_PROFILE, XMLDSIG_NAMESPACE, type SignatureProfile } from './signing/signature-profiles.js';
export { verifyXmlSignature, type SignatureVerification, type VerifyOptions } from './verification/verify-xml-signature.js';
export { canonicalFormMismatch } from './verification/canonical-form-check.js';
