// The common case of verifyEnvelopedSignature answered from the text itself: when the signed document is written
// the way signers write it (already in canonical form, C14N 1.0), the canonical form of the signed element and of
// SignedInfo is the received text with the namespace in scope added to its start tag, and libxml2 (a parse, XPath
// and two C14N walks across the wasm boundary, most of the simulator's signature cost) is not needed.
//
// This path only ever answers `valid`. Whenever the text is written any other way, the signature has any other
// shape, uses other algorithms, or does not verify, it answers undefined and the caller verifies with libxml2, so
// every failure (and its reason) is still libxml2's. For `valid` to be the same answer, every condition below is
// one under which the text alone, parsed by libxml2, has exactly the structure read here and C14N 1.0 reproduces
// exactly the bytes hashed here.
import { createHash, verify as verifySignature, type X509Certificate } from 'node:crypto';
import { ATTRIBUTE, NOT_A_CANONICAL_REFERENCE, NOT_A_CANONICAL_TAG, readCanonicalText, type StartTag } from './canonical-form.js';
import { DIGESTS, type EnvelopedVerification, parseCertificate, SIGNATURES } from './enveloped-signature.js';

const DSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';
/** The namespace the root must declare: NF-e, its events and inutilização (an absolute URI libxml2 takes silently). */
const NFE_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe';
const C14N_1_0 = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SUPPORTED_ID = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Not in canonical form, or not well-formed for libxml2, found in one scan of the whole text: a `<` that does not
 * open a tag written `<name( attribute="value")*>` or `</name>` (ASCII names without prefix, attributes separated
 * by one space, values without `&`, `<`, `>`, `"`, tab, CR or LF, which a parser would decode or normalize and C14N
 * would escape: such a value is written back unchanged; no `/>`, which C14N writes as an end tag); CR (normalized,
 * then escaped); a reference other than &amp; &lt; &gt; (decoded, then written as the character; attribute values
 * hold no `&`, so these are in text, where C14N escapes `&`, `<`, `>` as these three); characters XML forbids.
 * Once it passes, a tag ends at the first `>` after its `<`.
 */
const NOT_CANONICAL = new RegExp(`[\\r\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]|${NOT_A_CANONICAL_REFERENCE}|${NOT_A_CANONICAL_TAG}`);
const BASE64_TEXT = /^[A-Za-z0-9+/=\s]*$/;

/** A start tag (its attributes as written, xmlns included) with what is read of the element around it. */
interface Element extends StartTag {
  /** Default namespace in scope (the only kind of namespace a document read here can have). */
  namespace: string;
  children: Element[];
  /** Offsets in the text of the end tag's `<` and of just after its `>`. */
  contentEnd: number;
  end: number;
}

/**
 * The default namespace in scope in the element a start tag opens, or undefined unless its attributes are in C14N
 * order (ascending names; all are unprefixed) and declare a namespace at most once: the NF-e namespace on the root,
 * xmldsig on a Signature.
 */
function namespaceIn(tag: StartTag, parent: Element | undefined): string | undefined {
  let namespace = parent?.namespace ?? '';
  if (tag.attributes === '') return namespace;
  let previous = '';
  let declared = false;
  for (const match of tag.attributes.matchAll(ATTRIBUTE)) {
    const attribute = match[1] as string;
    const value = match[2] as string;
    if (attribute === 'xmlns') {
      const allowed = parent === undefined ? value === NFE_NAMESPACE : tag.name === 'Signature' && value === DSIG_NAMESPACE;
      if (!allowed || declared) return undefined;
      declared = true;
      namespace = value;
      continue;
    }
    if (attribute <= previous) return undefined;
    previous = attribute;
  }
  return namespace;
}

/**
 * The elements of `xml` in document order, or undefined unless the whole text is one element written in canonical
 * form (above) with namespaces only as the NF-e `xmlns` on the root and `xmlns="…xmldsig#"` on Signature elements, and
 * every element's attributes in C14N order (ascending names; all are unprefixed).
 */
function readCanonicalElements(xml: string): Element[] | undefined {
  if (NOT_CANONICAL.test(xml)) return undefined;
  const elements: Element[] = [];
  const read = readCanonicalText<Element>(xml, {
    // Text is allowed only inside the root element (and holds no `>`, which C14N would write `&gt;`).
    text: (parent) => parent !== undefined,
    open(tag, parent) {
      const namespace = namespaceIn(tag, parent);
      if (namespace === undefined || (parent === undefined && namespace !== NFE_NAMESPACE)) return undefined;
      const { name, attributes, start, contentStart } = tag;
      const element: Element = { name, attributes, start, contentStart, namespace, children: [], contentEnd: -1, end: -1 };
      parent?.children.push(element);
      elements.push(element);
      return element;
    },
    close(element, _parent, contentEnd, end) {
      element.contentEnd = contentEnd;
      element.end = end;
    },
  });
  return read ? elements : undefined;
}

/** The only element child named `name` when the element children are exactly `names`, in this order. */
function childrenNamed(element: Element, names: readonly string[]): Element[] | undefined {
  const { children } = element;
  if (children.length !== names.length || children.some((child, i) => child.name !== names[i])) return undefined;
  return children;
}

/** The value of an attribute: values hold no `"`, so ` name="` can only be where an attribute starts. */
function attribute(element: Element, name: string): string | undefined {
  const { attributes } = element;
  const start = attributes.indexOf(` ${name}="`);
  if (start < 0) return undefined;
  const valueStart = start + name.length + 3;
  return attributes.slice(valueStart, attributes.indexOf('"', valueStart));
}

/** Text of an element without element children, when it is base64 (and white space): nothing to decode. */
function base64Text(xml: string, element: Element): string | undefined {
  if (element.children.length > 0) return undefined;
  const text = xml.slice(element.contentStart, element.contentEnd);
  return BASE64_TEXT.test(text) ? text : undefined;
}

/**
 * C14N 1.0 of an element that contains no namespace declaration: its start tag gains the declaration of the
 * default namespace in scope (first: namespace nodes precede attributes), the rest is the text as written.
 */
function canonicalText(xml: string, element: Element): string {
  const attributes = element.attributes.replace(/ xmlns="[^"]*"/, '');
  return `<${element.name} xmlns="${element.namespace}"${attributes}>${xml.slice(element.contentStart, element.end)}`;
}

const contains = (outer: Element, inner: Element) => inner.start >= outer.start && inner.end <= outer.end;

/**
 * verifyEnvelopedSignature(xml, id, profile) when its answer is `valid` and the text lets it be computed from the
 * text alone (see the file comment); undefined otherwise, for the caller to verify with libxml2.
 */
export function verifyCanonicalTextSignature(xml: string, id: string, profile: readonly string[]): EnvelopedVerification | undefined {
  if (!SUPPORTED_ID.test(id)) return undefined;
  const elements = readCanonicalElements(xml);
  if (!elements) return undefined;
  // The Signature elements (ds:Signature anywhere, as libxml2's XPath looks) and the elements with this Id.
  const signatures = elements.filter((e) => e.name === 'Signature' && e.namespace === DSIG_NAMESPACE);
  const idAttribute = ` Id="${id}"`;
  const targets = elements.filter((e) => e.attributes.includes(idAttribute));
  if (signatures.length !== 1 || targets.length !== 1) return undefined;
  const signature = signatures[0] as Element;
  const target = targets[0] as Element;
  // Neither inside the other: the enveloped transform removes nothing, and the target declares no namespace.
  if (contains(target, signature) || contains(signature, target)) return undefined;

  // The signature exactly as the NF-e family writes it (other shapes go to libxml2).
  const [signedInfo, signatureValue, keyInfo] = childrenNamed(signature, ['SignedInfo', 'SignatureValue', 'KeyInfo']) ?? [];
  const [canonicalizationMethod, signatureMethod, reference] =
    (signedInfo && childrenNamed(signedInfo, ['CanonicalizationMethod', 'SignatureMethod', 'Reference'])) ?? [];
  const [transforms, digestMethod, digestValueElement] =
    (reference && childrenNamed(reference, ['Transforms', 'DigestMethod', 'DigestValue'])) ?? [];
  const transformList = transforms && childrenNamed(transforms, ['Transform', 'Transform']);
  const [x509Data] = (keyInfo && childrenNamed(keyInfo, ['X509Data'])) ?? [];
  const [x509Certificate] = (x509Data && childrenNamed(x509Data, ['X509Certificate'])) ?? [];
  if (!signedInfo || !signatureValue || !canonicalizationMethod || !signatureMethod || !reference || !digestMethod || !digestValueElement)
    return undefined;
  if (!transformList || !x509Certificate || attribute(reference, 'URI') !== `#${id}`) return undefined;
  const methods = [canonicalizationMethod, signatureMethod, digestMethod, ...transformList];
  if (methods.some((method) => method.children.length > 0)) return undefined;

  const [enveloped, referenceCanonicalization] = transformList.map((transform) => attribute(transform, 'Algorithm') ?? '');
  const canonicalizationUri = attribute(canonicalizationMethod, 'Algorithm') ?? '';
  const signatureUri = attribute(signatureMethod, 'Algorithm') ?? '';
  const digestUri = attribute(digestMethod, 'Algorithm') ?? '';
  const digest = DIGESTS[digestUri];
  const signatureAlgorithm = SIGNATURES[signatureUri];
  if (
    enveloped !== ENVELOPED ||
    referenceCanonicalization !== C14N_1_0 ||
    canonicalizationUri !== C14N_1_0 ||
    !digest ||
    !signatureAlgorithm
  )
    return undefined;
  if (![C14N_1_0, digestUri, signatureUri].every((uri) => profile.includes(uri))) return undefined;

  const certificateText = base64Text(xml, x509Certificate)?.replace(/\s+/g, '');
  const digestText = base64Text(xml, digestValueElement);
  const signatureText = base64Text(xml, signatureValue);
  if (!certificateText || digestText === undefined || signatureText === undefined) return undefined;
  let certificate: X509Certificate;
  try {
    certificate = parseCertificate(certificateText);
  } catch {
    return undefined;
  }
  const digestValue = digestText.trim();
  if (createHash(digest).update(canonicalText(xml, target), 'utf8').digest('base64') !== digestValue) return undefined;
  const canonicalSignedInfo = Buffer.from(canonicalText(xml, signedInfo), 'utf8');
  const signatureBytes = Buffer.from(signatureText.replace(/\s+/g, ''), 'base64');
  if (!verifySignature(signatureAlgorithm, canonicalSignedInfo, certificate.publicKey, signatureBytes)) return undefined;
  return { outcome: 'valid', certificate, digestValue };
}
