// Verification of an enveloped XML-DSig signature with libxml2's canonicalizer (wasm) and node:crypto. The result
// is the same as xml-crypto's (the spec cross-checks both on real SEFAZ-signed samples), about twenty times faster:
// xml-crypto's pure-JS canonicalization made the simulator's authorizations/s a measure of signature checking.
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import { ParseOption, XmlC14NMode, XmlDocument, type XmlElement, type XmlNode, XmlXPath } from 'libxml2-wasm';

const DS = { ds: 'http://www.w3.org/2000/09/xmldsig#' };
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const CANONICALIZATION: Record<string, (typeof XmlC14NMode)[keyof typeof XmlC14NMode]> = {
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315': XmlC14NMode.XML_C14N_1_0,
  'http://www.w3.org/2001/10/xml-exc-c14n#': XmlC14NMode.XML_C14N_EXCLUSIVE_1_0,
};
export const DIGESTS: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
};
export const SIGNATURES: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'RSA-SHA1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'RSA-SHA256',
};

export interface EnvelopedVerification {
  /** `profile`: not the expected structure or algorithms; `value`: digest or signature value differs. */
  outcome: 'valid' | 'profile' | 'value';
  reason?: string;
  certificate?: X509Certificate;
  digestValue?: string;
}

/**
 * The certificates seen in KeyInfo, parsed once: every NF-e of a company carries the same one, and parsing it is a
 * noticeable share of a verification. Keyed by the base64 text itself, so a different certificate is a different
 * entry; bounded so a stream of distinct certificates cannot grow it without limit.
 */
const parsedCertificates = new Map<string, X509Certificate>();
const MAX_PARSED_CERTIFICATES = 1000;

export function parseCertificate(base64: string): X509Certificate {
  const cached = parsedCertificates.get(base64);
  if (cached) return cached;
  const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
  if (parsedCertificates.size >= MAX_PARSED_CERTIFICATES) parsedCertificates.delete(parsedCertificates.keys().next().value as string);
  parsedCertificates.set(base64, certificate);
  return certificate;
}

/**
 * C14N of one element and its subtree, namespaces in scope included (what a Reference to `#Id` digests). libxml2's
 * node-set mode asks about each node by pointer; the subtree helper of libxml2-wasm builds a JS wrapper for every
 * node and attribute instead, which made canonicalization the largest cost of a verification.
 */
function canonicalSubtree(document: XmlDocument, element: XmlElement, mode: (typeof XmlC14NMode)[keyof typeof XmlC14NMode]): string {
  return document.canonicalizeToString({ mode, nodeSet: new Set([element]) });
}

const fail = (outcome: 'profile' | 'value', reason: string, certificate?: X509Certificate): EnvelopedVerification => ({
  outcome,
  reason,
  certificate,
});

function algorithm(node: XmlNode | null): string {
  return (node as XmlElement | null)?.attr('Algorithm')?.value ?? '';
}

// The fixed paths, compiled once for the life of the process (a compiled XPath belongs to no document).
const KEYINFO_CERTIFICATE = XmlXPath.compile('ds:KeyInfo/ds:X509Data/ds:X509Certificate', DS);
const SIGNED_INFO = XmlXPath.compile('ds:SignedInfo', DS);
const REFERENCE = XmlXPath.compile('ds:Reference', DS);
const TRANSFORMS = XmlXPath.compile('ds:Transforms/ds:Transform', DS);
const DIGEST_METHOD = XmlXPath.compile('ds:DigestMethod', DS);
const DIGEST_VALUE = XmlXPath.compile('ds:DigestValue', DS);
const CANONICALIZATION_METHOD = XmlXPath.compile('ds:CanonicalizationMethod', DS);
const SIGNATURE_METHOD = XmlXPath.compile('ds:SignatureMethod', DS);
const SIGNATURE_VALUE = XmlXPath.compile('ds:SignatureValue', DS);
const NESTED_SIGNATURE = XmlXPath.compile('boolean(descendant::ds:Signature)', DS);
const INSIDE_A_SIGNATURE = XmlXPath.compile('boolean(ancestor-or-self::ds:Signature)', DS);

const SUPPORTED_ID = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Verifies the signature whose Reference is `#id` in `xml` (the exact bytes received; a DTD must have been refused).
 * `profile` lists the algorithm URIs the signature must use (canonicalization, signature, digest): anything else is
 * a `profile` failure, reported before any value is computed.
 */
export function verifyEnvelopedSignature(xml: string, id: string, profile: readonly string[]): EnvelopedVerification {
  if (!SUPPORTED_ID.test(id)) return fail('profile', 'unsupported Id');
  let document: XmlDocument;
  try {
    document = XmlDocument.fromString(xml, { option: ParseOption.XML_PARSE_NONET });
  } catch (error) {
    return fail('profile', `not well-formed: ${(error as Error).message}`);
  }
  try {
    return verifyEnvelopedSignatureIn(document, document.root, id, profile);
  } finally {
    document.dispose();
  }
}

/**
 * verifyEnvelopedSignature on a document already parsed (for the NF-e: the enviNFe that passed the XSD), looking
 * only inside `signed`, the element whose bytes were signed (the NFe). The answer is the same as verifying the text
 * of `signed` alone when that text has the same namespaces in scope, which the caller must make sure of: C14N
 * renders the namespaces in scope, so a declaration on an ancestor outside `signed` would change the digest.
 * The document is used up: the referenced element may have been removed from it; the caller only disposes it.
 */
export function verifyEnvelopedSignatureIn(
  document: XmlDocument,
  signed: XmlElement,
  id: string,
  profile: readonly string[],
): EnvelopedVerification {
  if (!SUPPORTED_ID.test(id)) return fail('profile', 'unsupported Id');
  // descendant-or-self from `signed` is what // is from the document when `signed` is the root; the explicit axis
  // also spares libxml2 the intermediate node-set of every node that // builds before a predicate.
  const signature = signed.find(`descendant-or-self::ds:Signature[ds:SignedInfo/ds:Reference/@URI='#${id}']`, DS);
  if (signature.length !== 1) return fail('profile', 'no single Signature references the element');
  const sig = signature[0] as XmlElement;
  // The Id attributes rather than the elements that have one (*[@Id=…]): the same elements, several times cheaper
  // for libxml2, which otherwise evaluates a predicate with a node-set of its own on every element.
  const targetIds = signed.find(`descendant-or-self::*/@Id[.='${id}']`);
  // Two elements with the same Id would let a signed element hide behind an unsigned one.
  if (targetIds.length !== 1) return fail('profile', 'the referenced Id is missing or repeated');
  const target = targetIds[0]!.parent as XmlElement;
  if (target.eval(NESTED_SIGNATURE) === true) return fail('profile', 'signature inside the signed element');

  const certificateText = (sig.get(KEYINFO_CERTIFICATE)?.content ?? '').replace(/\s+/g, '');
  if (!certificateText) return fail('profile', 'no X509Certificate in KeyInfo');
  let certificate: X509Certificate;
  try {
    certificate = parseCertificate(certificateText);
  } catch {
    return fail('profile', 'KeyInfo X509Certificate is not a certificate');
  }
  const signedInfo = sig.get(SIGNED_INFO) as XmlElement | null;
  const reference = signedInfo?.find(REFERENCE) ?? [];
  if (!signedInfo || reference.length !== 1) return fail('profile', 'expected one Reference', certificate);
  const ref = reference[0] as XmlElement;
  const transforms = ref.find(TRANSFORMS).map(algorithm);
  const referenceMode = CANONICALIZATION[transforms[1] ?? ''];
  if (transforms.length !== 2 || transforms[0] !== ENVELOPED || referenceMode === undefined)
    return fail('profile', 'unexpected transforms', certificate);
  const digestUri = algorithm(ref.get(DIGEST_METHOD));
  const canonicalizationUri = algorithm(signedInfo.get(CANONICALIZATION_METHOD));
  const signatureUri = algorithm(signedInfo.get(SIGNATURE_METHOD));
  const digest = DIGESTS[digestUri];
  const signedInfoMode = CANONICALIZATION[canonicalizationUri];
  const signatureAlgorithm = SIGNATURES[signatureUri];
  if (!digest || signedInfoMode === undefined || !signatureAlgorithm) return fail('profile', 'unsupported algorithm', certificate);
  const used = [transforms[1], digestUri, canonicalizationUri, signatureUri];
  if (!used.every((uri) => profile.includes(uri as string))) return fail('profile', 'algorithms outside the profile', certificate);

  const digestValue = (ref.get(DIGEST_VALUE)?.content ?? '').trim();
  const computed = createHash(digest)
    .update(canonicalSubtree(document, target, referenceMode), 'utf8')
    .digest('base64');
  if (computed !== digestValue) return fail('value', 'Digest of the referenced element does not match', certificate);
  // C14N of SignedInfo walks the whole document (libxml2 canonicalizes from the top, asking about every node), and
  // the signed element is most of it. Done with now, it is freed first when that cannot change SignedInfo's
  // canonical form: it neither contains the Signature (checked above) nor lies inside one.
  if (target.eval(INSIDE_A_SIGNATURE) === false) target.remove();
  const signatureValue = Buffer.from((sig.get(SIGNATURE_VALUE)?.content ?? '').replace(/\s+/g, ''), 'base64');
  const canonicalSignedInfo = Buffer.from(canonicalSubtree(document, signedInfo, signedInfoMode), 'utf8');
  if (!verifySignature(signatureAlgorithm, canonicalSignedInfo, certificate.publicKey, signatureValue))
    return fail('value', 'SignatureValue does not match', certificate);
  return { outcome: 'valid', certificate, digestValue };
}
