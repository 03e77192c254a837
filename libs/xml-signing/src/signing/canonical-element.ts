import { type CanonicalizationKind } from './signature-profiles.js';

/** The document breaks the canonical-by-construction contract (see the lib README) or the Id is not usable. */
export class SignatureInputError extends Error {
  override readonly name = 'SignatureInputError';
}

export interface LocatedElement {
  name: string;
  /** Offset of `<` of the start tag. */
  start: number;
  /** Offset just after the end tag: where an enveloped signature goes as the next sibling. */
  end: number;
  /** The element in canonical form: what is digested. */
  canonical: string;
  /**
   * Prefixed namespace declarations in scope where the element (and so its Signature sibling) sits, sorted by
   * prefix. Inclusive C14N renders them on SignedInfo too.
   */
  inheritedPrefixedNamespaces: [prefix: string, uri: string][];
}

// The contract: double-quoted attributes, no prefixes on the signed element, names in the usual XML subset.
const START_TAG = /<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"]*")*)\s*(\/?)>/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ANY_TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ID_SHAPE = /^[A-Za-z_][\w.-]*$/;

type Attributes = [name: string, value: string][];

function attributesOf(text: string): Attributes {
  return [...text.matchAll(ATTRIBUTE)].map((match) => [match[1]!, match[2] ?? match[3] ?? '']);
}

/**
 * Namespace declarations in scope at `offset`, from the open ancestors' start tags (prefix → URI, '' = default).
 * Only the text before the element is scanned, usually a root start tag or two.
 */
function inScopeNamespaces(xml: string, offset: number): Map<string, string> {
  const stack: Attributes[] = [];
  ANY_TAG.lastIndex = 0;
  const head = xml.slice(0, offset);
  for (let match = ANY_TAG.exec(head); match; match = ANY_TAG.exec(head)) {
    if (match[1] === '/') stack.pop();
    else if (match[4] !== '/') stack.push(attributesOf(match[3] ?? ''));
  }
  const scope = new Map<string, string>();
  for (const frame of stack) {
    for (const [name, value] of frame) {
      if (name === 'xmlns') scope.set('', value);
      else if (name.startsWith('xmlns:')) scope.set(name.slice(6), value);
    }
  }
  return scope;
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Finds the element carrying `Id="<id>"` and returns its canonical form (C14N 1.0 inclusive or exclusive, without
 * comments) WITHOUT parsing the document: the builders emit canonical XML (see README, "canonical by
 * construction"), so only the apex start tag changes: C14N renders the namespace declarations inherited from
 * ancestors there (inclusive: all of them; exclusive: those visibly used, i.e. the default namespace here) and
 * sorts declarations and attributes.
 */
export function locateCanonicalElement(xml: string, id: string, kind: CanonicalizationKind): LocatedElement {
  if (!ID_SHAPE.test(id)) throw new SignatureInputError(`Not a usable Id: ${JSON.stringify(id)}`);
  const marker = ` Id="${id}"`;
  const markerAt = xml.indexOf(marker);
  if (markerAt < 0) throw new SignatureInputError(`No element with Id="${id}"`);
  if (xml.indexOf(marker, markerAt + marker.length) >= 0) {
    throw new SignatureInputError(`Id="${id}" occurs more than once`);
  }
  const start = xml.lastIndexOf('<', markerAt);
  START_TAG.lastIndex = start;
  const startTag = START_TAG.exec(xml);
  if (!startTag || start < 0) throw new SignatureInputError(`The start tag carrying Id="${id}" is not in canonical form`);
  const name = startTag[1]!;
  if (startTag[3] === '/') throw new SignatureInputError(`<${name}> is self-closing: not canonical`);
  const endTag = `</${name}>`;
  const contentStart = start + startTag[0].length;
  const endTagAt = xml.indexOf(endTag, contentStart);
  if (endTagAt < 0) throw new SignatureInputError(`No ${endTag} after Id="${id}"`);

  const ownAttributes = attributesOf(startTag[2] ?? '');
  const declarations = new Map<string, string>();
  const attributes: Attributes = [];
  for (const [attribute, value] of ownAttributes) {
    if (attribute === 'xmlns') declarations.set('', value);
    else if (attribute.startsWith('xmlns:')) declarations.set(attribute.slice(6), value);
    else if (attribute.includes(':')) throw new SignatureInputError(`Prefixed attribute ${attribute} on <${name}>: not supported`);
    else attributes.push([attribute, value]);
  }
  const inherited = inScopeNamespaces(xml, start);
  if (kind === 'inclusive') {
    for (const [prefix, uri] of inherited) if (!declarations.has(prefix)) declarations.set(prefix, uri);
  } else {
    // Exclusive C14N renders only visibly utilised namespaces: an unprefixed element uses the default one.
    for (const prefix of declarations.keys()) if (prefix !== '') declarations.delete(prefix);
    if (!declarations.has('') && inherited.has('')) declarations.set('', inherited.get('')!);
  }
  // xmlns="" is rendered only to undo a non-empty default from an output ancestor; the apex has none.
  if (declarations.get('') === '') declarations.delete('');

  const renderedDeclarations = [...declarations.entries()]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([prefix, uri]) => (prefix === '' ? ` xmlns="${uri}"` : ` xmlns:${prefix}="${uri}"`))
    .join('');
  const renderedAttributes = attributes
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([attribute, value]) => ` ${attribute}="${value}"`)
    .join('');
  const canonical = `<${name}${renderedDeclarations}${renderedAttributes}>${xml.slice(contentStart, endTagAt)}${endTag}`;
  const inheritedPrefixedNamespaces = [...inherited.entries()]
    .filter(([prefix]) => prefix !== '')
    .sort(([a], [b]) => compareCodePoints(a, b));
  return { name, start, end: endTagAt + endTag.length, canonical, inheritedPrefixedNamespaces };
}
