// The text form both canonical-form fast paths accept (canonical-tree.ts, canonical-text-signature.ts): how issuers
// write XML, and the scan of its tags. Each adds its own refusals to these; text outside them goes to the general
// parser or libxml2.

/**
 * A `<` that does not open a tag written `<name( attribute="value")*>` or `</name>`: ASCII names without prefix,
 * attributes separated by one space, double-quoted values without `&`, `<`, `>`, `"`, tab, CR or LF (nothing to
 * decode or normalize). Where no such `<` is found, a tag ends at the first `>` after its `<`.
 */
export const NOT_A_CANONICAL_TAG = String.raw`<(?!\/?[A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*="[^"<>&\t\n\r]*")*>)`;
/** A reference other than &amp; &lt; &gt;. */
export const NOT_A_CANONICAL_REFERENCE = String.raw`&(?!(?:amp|lt|gt);)`;
/** One attribute of a tag already known to be canonical: name and value. */
export const ATTRIBUTE = / ([A-Za-z_][\w.-]*)="([^"]*)"/g;

/**
 * A start tag of a text in canonical form: its name, its attributes as written (` name="value"` each, or ''), the
 * offsets of its `<` and of just after its `>`.
 */
export interface StartTag {
  readonly name: string;
  readonly attributes: string;
  readonly start: number;
  readonly contentStart: number;
}

/**
 * What a fast path builds from the tags and text that readCanonicalText finds. `text` and `open` refuse the text (for
 * the general parser or libxml2) by answering false or no element; `parent` is the innermost open element, undefined
 * outside the root.
 */
export interface CanonicalTextReader<E extends { readonly name: string }> {
  /** Text between two tags, or after the last one (`xml.slice(start, end)`, not empty). */
  text(parent: E | undefined, start: number, end: number): boolean;
  /** `depth`: how many elements are open around this one. */
  open(tag: StartTag, parent: E | undefined, depth: number): E | undefined;
  /** The end tag of `element`: the offsets of its `<` and of just after its `>`. */
  close(element: E, parent: E | undefined, contentEnd: number, end: number): void;
}

/**
 * The scan both fast paths share, of a text already cleared of NOT_A_CANONICAL_TAG (so a tag ends at the first `>`
 * after its `<`): true when the text is exactly one root element and `reader` took every piece of it; false for a
 * `>` in text, an end tag that does not close the open element, a second root, an element left open, no element.
 */
export function readCanonicalText<E extends { readonly name: string }>(xml: string, reader: CanonicalTextReader<E>): boolean {
  const open: E[] = [];
  let rootRead = false;
  let at = 0;
  while (at < xml.length) {
    const tagStart = xml.indexOf('<', at);
    const textEnd = tagStart < 0 ? xml.length : tagStart;
    if (textEnd > at && !reader.text(open.at(-1), at, textEnd)) return false;
    if (tagStart < 0) break;
    const tagEnd = xml.indexOf('>', at);
    if (tagEnd < tagStart) return false;
    at = tagEnd + 1;
    if (xml.charCodeAt(tagStart + 1) === 47 /* / */) {
      const element = open.pop();
      if (!element || tagEnd !== tagStart + 2 + element.name.length || !xml.startsWith(element.name, tagStart + 2)) return false;
      reader.close(element, open.at(-1), tagStart, at);
      continue;
    }
    if (rootRead && open.length === 0) return false; // a second root
    const tag = xml.slice(tagStart + 1, tagEnd);
    const space = tag.indexOf(' ');
    const name = space < 0 ? tag : tag.slice(0, space);
    const element = reader.open(
      { name, attributes: space < 0 ? '' : tag.slice(space), start: tagStart, contentStart: at },
      open.at(-1),
      open.length,
    );
    if (!element) return false;
    open.push(element);
    rootRead = true;
  }
  return rootRead && open.length === 0;
}
