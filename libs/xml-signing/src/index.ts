// @talao/xml-signing: PKCS#12 (A1) loading and XML-DSig for the NF-e family and the NFS-e Nacional DPS.
// Details, the canonical-by-construction contract and the profiles: ../README.md.
//
//   loadPkcs12(pfx: Buffer, password: string): A1Certificate          throws CertificateError (code), bounded work
//   assessCertificateTrust(cert, { anchorsPem }): CertificateTrust     chain to ICP-Brasil anchors, or the test CA
//   createSigner(cert: A1Certificate): XmlSigner                      key imported into node:crypto once
//     .signNfeFamily(xml, id): string   infNFe / infEvento / infInut, RSA-SHA1 + C14N 1.0 inclusive
//     .signDps(xml, id): string         infDPS / infPedReg, RSA-SHA256 + exclusive C14N
//     (id without '#'; Signature spliced in as the next sibling; input never re-parsed; SignatureInputError)
//   verifyXmlSignature(xml, { idAttribute? }): { valid, reason?, certificatePem? }   xml-crypto, no DTD
//   canonicalFormMismatch(xml, id, 'inclusive' | 'exclusive'): string | null         builders' tests
export { loadPkcs12, MAX_KDF_ITERATIONS, type A1Certificate } from './pkcs12/load-pkcs12.js';
export { CertificateError, type CertificateErrorCode } from './pkcs12/certificate-error.js';
export * from './trust/index.js';
export { extractTaxId, ICP_BRASIL_OID } from './pkcs12/icp-brasil-tax-id.js';
export { createSigner, type XmlSigner } from './signing/create-signer.js';
export { SignatureInputError, locateCanonicalElement, type LocatedElement } from './signing/canonical-element.js';
export {
  NFE_FAMILY_PROFILE,
  NFSE_NACIONAL_PROFILE,
  XMLDSIG_NAMESPACE,
  type CanonicalizationKind,
  type SignatureProfile,
} from './signing/signature-profiles.js';
export { verifyXmlSignature, type SignatureVerification, type VerifyOptions } from './verification/verify-xml-signature.js';
export { canonicalFormMismatch } from './verification/canonical-form-check.js';
