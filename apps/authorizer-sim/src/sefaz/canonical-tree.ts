// parseXmlTree's tree of a message written the way the issuers write it (canonical form: no comments, CDATA,
// processing instructions or empty-element tags, attributes as ` name="value"`, only &amp; &lt; &gt; in text),
// built in one scan without the general parser's checks per character, which made it about a fifth of the cost
// of an authorization. Any other text gets undefined, and the caller parses it with parseXmlTree as before.
//
// The tree is exactly parseXmlTree's (the spec compares them): names without prefix, xmlns dropped, attributes as
// "@_name" trimmed, text segments trimmed then decoded and joined, an element that repeats as an array, one
// without attributes or children as its text. Every input parseXmlTree refuses (too deep, reserved names,
// repeated attributes, a second root, text outside the root) gets undefined here, so the caller's parseXmlTree
// throws as it always did.
import { addXmlTreeChild, decodeXmlText, MAX_NESTED_ELEMENTS, type XmlObject, type XmlValue } from '@talao/fiscal-xml';
import { ATTRIBUTE, NOT_A_CANONICAL_REFERENCE, NOT_A_CANONICAL_TAG, readCanonicalText } from './canonical-form.js';

/**
 * Not in canonical form: a `<` that does not open a tag written `<name( attribute="value")*>` or `</name>` (ASCII
 * names without prefix, values without `&`, `<`, `>`, `"`, tab, CR or LF), a name parseXmlTree refuses, or a
 * reference other than &amp; &lt; &gt; (decoding them is the only decoding done here). One scan of the whole text,
 * so that the tags need no check of their own below: a tag ends at the first `>` after its `<`.
 */
const NOT_CANONICAL = new RegExp(
  `${NOT_A_CANONICAL_TAG}|<\\/?(?:__proto__|constructor|prototype)[ >]| (?:__proto__|constructor|prototype)="|${NOT_A_CANONICAL_REFERENCE}`,
);

interface OpenElement {
  name: string;
  node: XmlObject;
  text: string;
  /** Whether node has a key (an attribute or a child): parseXmlTree's Object.keys(node).length > 0. */
  hasMembers: boolean;
}

/** Stores the attributes of a start tag as parseXmlTree does; false where parseXmlTree would throw. */
function storeAttributes(attributes: string, element: OpenElement): boolean {
  const seen: string[] = [];
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = match[1] as string;
    if (seen.includes(name)) return false;
    seen.push(name);
    if (name === 'xmlns') continue;
    element.node[`@_${name}`] = (match[2] as string).trim();
    element.hasMembers = true;
  }
  return true;
}

/** parseXmlTree(xml) when `xml` is in canonical form (file comment); undefined otherwise. */
export function readCanonicalTree(xml: string): XmlObject | undefined {
  if (NOT_CANONICAL.test(xml)) return undefined;
  let root: XmlObject | undefined;
  const read = readCanonicalText<OpenElement>(xml, {
    text(parent, start, end) {
      const text = xml.slice(start, end).trim();
      if (parent) parent.text += text.includes('&') ? decodeXmlText(text) : text;
      // Outside the root, white space only.
      return parent !== undefined || text === '';
    },
    open(tag, _parent, depth) {
      if (depth >= MAX_NESTED_ELEMENTS) return undefined;
      const element: OpenElement = { name: tag.name, node: {}, text: '', hasMembers: false };
      return tag.attributes === '' || storeAttributes(tag.attributes, element) ? element : undefined;
    },
    close(element, parent) {
      let value: XmlValue = element.node;
      if (!element.hasMembers) value = element.text;
      else if (element.text !== '') element.node['#text'] = element.text;
      if (parent) {
        addXmlTreeChild(parent.node, element.name, value);
        parent.hasMembers = true;
      } else root = { [element.name]: value };
    },
  });
  return read ? root : undefined;
}
