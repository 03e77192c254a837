import { X509Certificate } from 'node:crypto';
import { extractTaxId } from '@talao/xml-signing';
import { type XmlDocument, type XmlElement } from 'libxml2-wasm';
import { verifyCanonicalTextSignature } from './canonical-text-signature.js';
import { type EnvelopedVerification, verifyEnvelopedSignature, verifyEnvelopedSignatureIn } from './enveloped-signature.js';

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
 * What carries the signature: the exact text received, alone or with a way to that text already parsed (`element`
 * within `document`, with the same namespaces in scope as the text alone; see verifyEnvelopedSignatureIn), asked
 * for only when the text cannot be verified as written.
 */
export type SignedXml = string | { text: string; parsed: () => { document: XmlDocument; element: XmlElement } | undefined };

/**
 * The text as written first (verifyCanonicalTextSignature: only a `valid` answer, when the text is in canonical
 * form, as signers write it); libxml2 for everything else, on the parsed document when there is one.
 */
function verify(signed: SignedXml, id: string, algorithms: readonly string[]): EnvelopedVerification {
  const text = typeof signed === 'string' ? signed : signed.text;
  const fromText = verifyCanonicalTextSignature(text, id, algorithms);
  if (fromText) return fromText;
  const parsed = typeof signed === 'string' ? undefined : signed.parsed();
  return parsed
    ? verifyEnvelopedSignatureIn(parsed.document, parsed.element, id, algorithms)
    : verifyEnvelopedSignature(text, id, algorithms);
}

/**
 * What a certificate says that does not change between documents: whether it chains to the trusted CA (an RSA
 * verification) and the tax id in its ICP-Brasil extension (an ASN.1 walk). The verifier hands back the same
 * X509Certificate object for the same KeyInfo text, so both are computed once per certificate and CA. Validity
 * dates are still checked on every document, against the simulator's clock.
 */
const certificateFacts = new WeakMap<X509Certificate, { ca: X509Certificate; chained: boolean; taxId: string | null }>();

function factsOf(certificate: X509Certificate, trustedCa: X509Certificate): { chained: boolean; taxId: string | null } {
  const cached = certificateFacts.get(certificate);
  if (cached && cached.ca === trustedCa) return cached;
  const chained = certificate.checkIssued(trustedCa) && certificate.verify(trustedCa.publicKey);
  const commonName = /CN=([^\n,]+)/.exec(certificate.subject)?.[1] ?? null;
  const facts = { ca: trustedCa, chained, taxId: chained ? extractTaxId(certificate.raw, commonName) : null };
  certificateFacts.set(certificate, facts);
  return facts;
}

/**
 * Verifies the enveloped signature of the element `signedId` in `signedXml` (the exact bytes received): the
 * algorithms of the profile and the Reference (`profile`), digest and signature value (`value`), a certificate that
 * chains to the trusted CA (`chain`) and is valid at `at` (`expired`).
 */
export function checkXmlSignature(
  signedXml: SignedXml,
  signedId: string,
  trustedCa: X509Certificate,
  at: Date,
  algorithms: readonly string[],
): { ok: true; facts: SignatureFacts } | { ok: false; failure: SignatureFailure } {
  const verification = verify(signedXml, signedId, algorithms);
  if (verification.outcome !== 'valid' || !verification.certificate)
    return { ok: false, failure: verification.outcome === 'value' ? 'value' : 'profile' };
  const certificate = verification.certificate;
  const facts = factsOf(certificate, trustedCa);
  if (!facts.chained) return { ok: false, failure: 'chain' };
  if (certificate.validToDate < at || certificate.validFromDate > at) return { ok: false, failure: 'expired' };
  return { ok: true, facts: { digestValue: verification.digestValue ?? '', signerTaxId: facts.taxId } };
}

const NFE_FAILURE_CODES: Record<SignatureFailure, string> = { profile: '298', value: '297', chain: '293', expired: '291' };

/**
 * NF-e family signature as SEFAZ checks it: 298 when it does not follow the standard (algorithms, Reference to the
 * signed element, certificate in KeyInfo), 297 when the computed digest or signature value differs, 293 when the
 * certificate does not chain to a trusted CA (here: the simulator's test CA), 291 when it is expired.
 */
export function checkNfeFamilySignature(signedXml: SignedXml, signedId: string, trustedCa: X509Certificate, at: Date): SignatureCheck {
  const result = checkXmlSignature(signedXml, signedId, trustedCa, at, NFE_FAMILY_ALGORITHMS);
  return result.ok ? result : { ok: false, cStat: NFE_FAILURE_CODES[result.failure] };
}

/** Same company: the CNPJ base (first 8 characters), or the whole CPF. */
export function sameCompany(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  if (a.length === 14 && b.length === 14) return a.slice(0, 8) === b.slice(0, 8);
  return a === b;
}
