import { X509Certificate } from 'node:crypto';
import { extractTaxId } from '@talao/xml-signing';
import { verifyEnvelopedSignature } from './enveloped-signature.js';

export interface SignatureFacts {
  /** DigestValue of the signature: digVal of the protocol. */
  digestValue: string;
  /** Tax id (CNPJ/CPF) of the signing certificate. */
  signerTaxId: string | null;
}

export type SignatureCheck = { ok: true; facts: SignatureFacts } | { ok: false; cStat: string };

export const NFE_FAMILY_ALGORITHMS = [
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#sha1',
];
export const NFSE_NACIONAL_ALGORITHMS = [
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmlenc#sha256',
];

export type SignatureFailure = 'profile' | 'value' | 'chain' | 'expired';

/**
 * Verifies the enveloped signature of the element `signedId` in `signedXml` (the exact bytes received): the
 * algorithms of the profile and the Reference (`profile`), digest and signature value (`value`), a certificate that
 * chains to the trusted CA (`chain`) and is valid at `at` (`expired`).
 */
export function checkXmlSignature(
  signedXml: string, signedId: string, trustedCa: X509Certificate, at: Date, algorithms: readonly string[],
): { ok: true; facts: SignatureFacts } | { ok: false; failure: SignatureFailure } {
  const verification = verifyEnvelopedSignature(signedXml, signedId, algorithms);
  if (verification.outcome !== 'valid' || !verification.certificate) return { ok: false, failure: verification.outcome === 'value' ? 'value' : 'profile' };
  const certificate = verification.certificate;
  if (!certificate.checkIssued(trustedCa) || !certificate.verify(trustedCa.publicKey)) return { ok: false, failure: 'chain' };
  if (new Date(certificate.validTo) < at || new Date(certificate.validFrom) > at) return { ok: false, failure: 'expired' };
  const digestValue = verification.digestValue ?? '';
  const commonName = /CN=([^\n,]+)/.exec(certificate.subject)?.[1] ?? null;
  return { ok: true, facts: { digestValue, signerTaxId: extractTaxId(certificate.raw, commonName) } };
}

const NFE_FAILURE_CODES: Record<SignatureFailure, string> = { profile: '298', value: '297', chain: '293', expired: '291' };

/**
 * NF-e family signature as SEFAZ checks it: 298 when it does not follow the standard (algorithms, Reference to the
 * signed element, certificate in KeyInfo), 297 when the computed digest or signature value differs, 293 when the
 * certificate does not chain to a trusted CA (here: the simulator's test CA), 291 when it is expired.
 */
export function checkNfeFamilySignature(signedXml: string, signedId: string, trustedCa: X509Certificate, at: Date): SignatureCheck {
  const result = checkXmlSignature(signedXml, signedId, trustedCa, at, NFE_FAMILY_ALGORITHMS);
  return result.ok ? result : { ok: false, cStat: NFE_FAILURE_CODES[result.failure] };
}

/** Same company: the CNPJ base (first 8 characters), or the whole CPF. */
export function sameCompany(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  if (a.length === 14 && b.length === 14) return a.slice(0, 8) === b.slice(0, 8);
  return a === b;
}
