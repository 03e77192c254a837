import { X509Certificate } from 'node:crypto';
import { extractTaxId, verifyXmlSignature } from '@talao/xml-signing';

export interface SignatureFacts {
  /** DigestValue of the signature: digVal of the protocol. */
  digestValue: string;
  /** Tax id (CNPJ/CPF) of the signing certificate. */
  signerTaxId: string | null;
}

export type SignatureCheck = { ok: true; facts: SignatureFacts } | { ok: false; cStat: string };

const NFE_PROFILE = [
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#sha1',
];

/**
 * NF-e family signature as SEFAZ checks it: 298 when it does not follow the standard (algorithms, Reference to the
 * signed element, certificate in KeyInfo), 297 when the computed digest or signature value differs, 293 when the
 * certificate does not chain to a trusted CA (here: the simulator's test CA), 291 when it is expired.
 */
export function checkNfeFamilySignature(signedXml: string, signedId: string, trustedCa: X509Certificate, at: Date): SignatureCheck {
  const signature = /<Signature[\s>][\s\S]*<\/Signature>/.exec(signedXml)?.[0];
  if (!signature) return { ok: false, cStat: '298' };
  if (!NFE_PROFILE.every((algorithm) => signature.includes(`Algorithm="${algorithm}"`))) return { ok: false, cStat: '298' };
  if (!signature.includes(`URI="#${signedId}"`)) return { ok: false, cStat: '298' };
  const verification = verifyXmlSignature(signedXml);
  if (!verification.certificatePem) return { ok: false, cStat: '298' };
  if (!verification.valid) return { ok: false, cStat: /does not match/i.test(verification.reason ?? '') ? '297' : '298' };
  const certificate = new X509Certificate(verification.certificatePem);
  if (!certificate.checkIssued(trustedCa) || !certificate.verify(trustedCa.publicKey)) return { ok: false, cStat: '293' };
  if (new Date(certificate.validTo) < at || new Date(certificate.validFrom) > at) return { ok: false, cStat: '291' };
  const digestValue = /<DigestValue>([^<]+)<\/DigestValue>/.exec(signature)?.[1] ?? '';
  const commonName = /CN=([^\n,]+)/.exec(certificate.subject)?.[1] ?? null;
  return { ok: true, facts: { digestValue, signerTaxId: extractTaxId(certificate.raw, commonName) } };
}

/** Same company: the CNPJ base (first 8 characters), or the whole CPF. */
export function sameCompany(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  if (a.length === 14 && b.length === 14) return a.slice(0, 8) === b.slice(0, 8);
  return a === b;
}
