// `@talao/xml-signing/trust`: whether a certificate chains to a trusted CA, on node:crypto alone. A separate entry so
// the gateway can read its ICP-Brasil bundle at boot without loading the signing and PKCS#12 libraries
// (xml-crypto, node-forge) that the main entry brings (apps/gateway/src/gateway-modules.spec.ts checks it).
export {
  assessCertificateTrust,
  parseCertificateBundle,
  TEST_CA_SUBJECT_MARKER,
  type CertificateTrust,
  type CertificateTrustPolicy,
} from '../pkcs12/certificate-trust.js';
