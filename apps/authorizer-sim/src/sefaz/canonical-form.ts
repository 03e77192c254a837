// The text form both canonical-form fast paths accept (canonical-tree.ts, canonical-text-signature.ts): how issuers
// write XML. Each adds its own refusals to these; text outside them goes to the general parser or libxml2.

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
