import { X509Certificate } from 'node:crypto';
import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { XMLDSIG_NAMESPACE } from '../signing/signature-profiles.js';

export interface SignatureVerification {
  valid: boolean;
  reason?: string;
  /** The certificate embedded in KeyInfo (of the first signature), PEM: the caller decides whether it trusts it. */
  certificatePem?: string;
}

export interface VerifyOptions {
  /** Attribute that carries the referenced Id; NF-e and NFS-e use `Id` (the default). */
  idAttribute?: string;
}

const MAX_SIGNED_XML_BYTES = 20 * 1024 * 1024;
const ELEMENT_NODE = 1;

function refuseHostileInput(xml: string): string | null {
  if (Buffer.byteLength(xml, 'utf8') > MAX_SIGNED_XML_BYTES) return `Document larger than ${MAX_SIGNED_XML_BYTES} bytes refused`;
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) return 'DOCTYPE and entity declarations are refused';
  return null;
}

function parse(xml: string): Document | string {
  let problem: string | null = null;
  const document = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') problem ??= message;
    },
  }).parseFromString(xml, 'text/xml');
  return problem ?? document;
}

function previousElement(node: Node): Node | null {
  let current = node.previousSibling;
  while (current && current.nodeType !== ELEMENT_NODE) current = current.previousSibling;
  return current;
}

/**
 * The enveloped shapes the fiscal documents use: the referenced element is the Signature's previous sibling
 * (NF-e family, DPS) or its parent. Anything else (a reference to some other part of the document) is refused,
 * which closes signature-wrapping tricks where a valid signature covers an element the reader never looks at.
 */
function referencedElementPlacement(signature: Element, id: string, idAttribute: string): string | null {
  const candidates = [previousElement(signature as unknown as Node), signature.parentNode];
  for (const candidate of candidates) {
    if (candidate && candidate.nodeType === ELEMENT_NODE && (candidate as Element).getAttribute(idAttribute) === id) return null;
  }
  return `Reference #${id} is not the element the Signature envelops`;
}

function verifyOne(xml: string, signature: Element, idAttribute: string): { reason?: string; certificatePem?: string } {
  // xml-crypto already looks up Id/ID/id; naming one of them again makes it count every element twice.
  const extraIdAttribute = ['Id', 'ID', 'id'].includes(idAttribute) ? {} : { idAttribute };
  const verifier = new SignedXml({ ...extraIdAttribute, getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  const keyInfo = signature.getElementsByTagNameNS(XMLDSIG_NAMESPACE, 'KeyInfo')[0] ?? null;
  const certificatePem = SignedXml.getCertFromKeyInfo(keyInfo) ?? undefined;
  if (!certificatePem) return { reason: 'No X509Certificate in KeyInfo' };
  try {
    new X509Certificate(certificatePem);
  } catch {
    return { reason: 'KeyInfo X509Certificate is not a certificate', certificatePem };
  }
  const references = signature.getElementsByTagNameNS(XMLDSIG_NAMESPACE, 'Reference');
  if (references.length !== 1) return { reason: `Expected one Reference, found ${references.length}`, certificatePem };
  const uri = references[0]!.getAttribute('URI') ?? '';
  if (!uri.startsWith('#') || uri.length < 2) return { reason: `Unsupported Reference URI "${uri}"`, certificatePem };
  const misplaced = referencedElementPlacement(signature, uri.slice(1), idAttribute);
  if (misplaced) return { reason: misplaced, certificatePem };
  try {
    verifier.loadSignature(signature);
    if (!verifier.checkSignature(xml)) return { reason: 'Digest of the referenced element does not match', certificatePem };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error), certificatePem };
  }
  return { certificatePem };
}

/**
 * Verifies every XML-DSig Signature in the document with xml-crypto (an implementation independent of the
 * signer). Valid only if there is at least one and all verify. The certificate is taken from KeyInfo; whether
 * it is trusted (chain, owner's CNPJ, validity) is the caller's decision.
 */
export function verifyXmlSignature(xml: string, options: VerifyOptions = {}): SignatureVerification {
  const hostile = refuseHostileInput(xml);
  if (hostile) return { valid: false, reason: hostile };
  const parsed = parse(xml);
  if (typeof parsed === 'string') return { valid: false, reason: `Malformed XML: ${parsed}` };
  const signatures = Array.from(parsed.getElementsByTagNameNS(XMLDSIG_NAMESPACE, 'Signature')) as unknown as Element[];
  if (signatures.length === 0) return { valid: false, reason: 'No Signature element' };
  let firstCertificate: string | undefined;
  for (const signature of signatures) {
    const outcome = verifyOne(xml, signature, options.idAttribute ?? 'Id');
    firstCertificate ??= outcome.certificatePem;
    if (outcome.reason) return { valid: false, reason: outcome.reason, certificatePem: firstCertificate };
  }
  return { valid: true, certificatePem: firstCertificate };
}
