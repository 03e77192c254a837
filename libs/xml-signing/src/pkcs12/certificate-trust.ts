// Whose certificate is this? An A1 upload must chain, through CA certificates whose signatures verify, to an
// anchor: the ICP-Brasil certificate authorities an operator configures (a production deployment), or, where none
// are configured (a homologation stack: tests, the simulator, `npm start`), the project's test CA
// (@talao/icp-test-ca), recognised by the marker in its subject and said so. A self-signed certificate is never
// accepted: anybody can make one for any CNPJ.
import { X509Certificate } from 'node:crypto';
import type { A1Certificate } from './load-pkcs12.js';

/** In the subject of every CA @talao/icp-test-ca creates (tested against it in certificate-trust.spec.ts). */
export const TEST_CA_SUBJECT_MARKER = 'Talao test certificate authority - not for production';
/** Longer than any ICP-Brasil chain (root, intermediate, issuing AC). */
const MAX_CHAIN_LENGTH = 6;

export interface CertificateTrustPolicy {
  /** The ICP-Brasil CA certificates (PEM) an A1 must chain to. Empty: only the test CA is accepted. */
  readonly anchorsPem: readonly string[];
}

export type CertificateTrust =
  | { readonly trusted: true; readonly anchor: 'icp_brasil' | 'test_ca'; readonly anchorName: string }
  | { readonly trusted: false; readonly reason: string };

function isSelfSigned(certificate: X509Certificate): boolean {
  return certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey);
}

function validAt(certificate: X509Certificate, now: Date): boolean {
  return certificate.validFromDate.getTime() <= now.getTime() && now.getTime() <= certificate.validToDate.getTime();
}

function distinguishedName(certificate: X509Certificate): string {
  return certificate.subject.split('\n').filter(Boolean).reverse().join(', ');
}

/** The CA certificates of a PEM bundle; throws on a bundle with none, or with a certificate that is not a CA. */
export function parseCertificateBundle(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('the bundle holds no PEM certificate');
  for (const block of blocks) {
    if (!new X509Certificate(block).ca) throw new Error(`${distinguishedName(new X509Certificate(block))} is not a CA certificate`);
  }
  return blocks;
}

/**
 * Follows the certificate's issuers (the file's chain, then the anchors) until an anchor: each issuer a CA valid
 * now whose public key verifies the certificate below it.
 */
export function assessCertificateTrust(a1: A1Certificate, policy: CertificateTrustPolicy, now = new Date()): CertificateTrust {
  const leaf = new X509Certificate(a1.certificatePem);
  if (isSelfSigned(leaf)) {
    return {
      trusted: false,
      reason: 'The certificate is self-signed; an A1 certificate must be issued by an ICP-Brasil certificate authority',
    };
  }
  const anchors = policy.anchorsPem.map((pem) => new X509Certificate(pem));
  const anchorPrints = new Set(anchors.map((anchor) => anchor.fingerprint256));
  const candidates = [...a1.chainPem.map((pem) => new X509Certificate(pem)), ...anchors];
  const testMode = anchors.length === 0;
  let current = leaf;
  for (let length = 0; length < MAX_CHAIN_LENGTH; length++) {
    const issuer = candidates.find(
      (candidate) => candidate.ca && current.checkIssued(candidate) && validAt(candidate, now) && current.verify(candidate.publicKey),
    );
    if (!issuer) break;
    if (!testMode && anchorPrints.has(issuer.fingerprint256))
      return { trusted: true, anchor: 'icp_brasil', anchorName: distinguishedName(issuer) };
    if (isSelfSigned(issuer)) {
      if (testMode && issuer.subject.includes(TEST_CA_SUBJECT_MARKER))
        return { trusted: true, anchor: 'test_ca', anchorName: distinguishedName(issuer) };
      break;
    }
    current = issuer;
  }
  return {
    trusted: false,
    reason: testMode
      ? 'The certificate does not chain to the test certificate authority; this deployment has no ICP-Brasil trust bundle (CERTIFICATE_TRUST_BUNDLE_FILE) and accepts test certificates only'
      : 'The certificate does not chain to an ICP-Brasil certificate authority of the configured trust bundle',
  };
}
