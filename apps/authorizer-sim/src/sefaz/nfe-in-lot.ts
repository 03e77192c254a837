// The NFe of an enviNFe that passed the XSD, taken from the libxml2 document the validation parsed, so that its
// signature is verified without parsing the same bytes a second time. Only where that is provably the same as
// verifying the NFe's exact text on its own (rawElement(message, 'NFe'), what is stored and later served).
import { NFE_NAMESPACE } from '@talao/fiscal-xml';
import { type XmlDocument, type XmlElement, XmlXPath } from 'libxml2-wasm';

const FIRST_NFE = XmlXPath.compile('nfe:NFe', { nfe: NFE_NAMESPACE });
/** The start tags rawElement(message, 'NFe') looks for (plus the empty-element form). */
const NFE_START_TAG = /<(?:[A-Za-z_][\w.-]*:)?NFe[\s>/]/g;
/** Comments, CDATA sections, processing instructions, the XML declaration (which may name another encoding). */
const MARKUP_OTHER_THAN_TAGS = /<[!?]/;

/**
 * The NFe element of the validated lot `document` parsed from `message`, or undefined when its subtree might differ
 * from what the NFe's text alone parses to, in which case the caller verifies that text (the original way).
 *
 * Same subtree, hence same C14N, same digest, same answer, when:
 * - every `<` of the message opens a tag (no comment, CDATA, PI or XML declaration: nothing that could hide a
 *   `<NFe` or `</NFe>` from the text search, nor change how the bytes are decoded);
 * - exactly one NFe start tag: the document's NFe is the element the text search cuts out, start tag to end tag;
 * - every namespace declared on an ancestor is redeclared on the NFe, and no ancestor has an xml:* (or any
 *   namespaced) attribute: the namespaces in scope and the attributes C14N inherits are those of the text alone.
 */
export function nfeOfValidatedLot(document: XmlDocument, message: string): XmlElement | undefined {
  if (MARKUP_OTHER_THAN_TAGS.test(message)) return undefined;
  if (message.match(NFE_START_TAG)?.length !== 1) return undefined;
  const nfe = document.root.get(FIRST_NFE) as XmlElement | null;
  if (!nfe) return undefined;
  const declaredOnNfe = nfe.nsDeclarations;
  for (let ancestor = nfe.parent; ancestor; ancestor = ancestor.parent) {
    if (Object.keys(ancestor.nsDeclarations).some((prefix) => !Object.hasOwn(declaredOnNfe, prefix))) return undefined;
    if (ancestor.attrs.some((attribute) => attribute.namespaceUri !== '')) return undefined;
  }
  return nfe;
}
