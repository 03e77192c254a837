// A tiny string writer whose output is already in Canonical XML 1.0 form (inclusive C14N), so the signer can
// digest the bytes it is given without re-parsing them (see libs/xml-signing/README.md): no XML declaration,
// no self-closing tags, no whitespace between elements, attributes in C14N order and C14N escaping.

// XML 1.0 Char production minus the C0 controls other than TAB, LF and CR; lone surrogates are refused too.
const FORBIDDEN_CHAR =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const TEXT_SPECIAL = /[&<>\r]/;
const ATTR_SPECIAL = /[&<"\t\n\r]/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*(:[A-Za-z_][A-Za-z0-9_.-]*)?$/;

export class XmlBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlBuildError';
  }
}

function assertXmlChars(value: string, where: string): void {
  if (FORBIDDEN_CHAR.test(value)) throw new XmlBuildError(`${where}: contains a character XML 1.0 cannot carry`);
}

/** C14N text escaping: & < > and CR. */
export function escapeText(value: string): string {
  assertXmlChars(value, 'text');
  if (!TEXT_SPECIAL.test(value)) return value;
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
}

/** C14N attribute-value escaping: & < " TAB LF CR. */
export function escapeAttribute(value: string): string {
  assertXmlChars(value, 'attribute');
  if (!ATTR_SPECIAL.test(value)) return value;
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');
}

export type Attributes = Readonly<Record<string, string | undefined>>;

// C14N order: namespace declarations first (default, then by prefix), then attributes by (namespace URI, local
// name). Our attributes are all unqualified (empty namespace URI), so that is code-point order of the name.
function compareAttributeNames(a: string, b: string): number {
  const rank = (n: string) => (n === 'xmlns' ? 0 : n.startsWith('xmlns:') ? 1 : 2);
  const diff = rank(a) - rank(b);
  if (diff !== 0) return diff;
  return a < b ? -1 : a > b ? 1 : 0;
}

function renderAttributes(attributes: Attributes | undefined): string {
  if (!attributes) return '';
  const names = Object.keys(attributes).filter((n) => attributes[n] !== undefined);
  if (names.length > 1) names.sort(compareAttributeNames);
  let out = '';
  for (const name of names) {
    if (!NAME.test(name)) throw new XmlBuildError(`invalid attribute name "${name}"`);
    if (name.includes(':') && !name.startsWith('xmlns:')) {
      // A prefixed attribute would need its namespace URI to be ordered correctly; none of our layouts uses one.
      throw new XmlBuildError(`qualified attribute "${name}" is not supported by the canonical writer`);
    }
    out += ` ${name}="${escapeAttribute(attributes[name] as string)}"`;
  }
  return out;
}

/** `<name attrs>children</name>`; `children` must already be canonical XML (built with these functions). */
export function element(name: string, children: string, attributes?: Attributes): string {
  return `<${name}${renderAttributes(attributes)}>${children}</${name}>`;
}

/** `<name>escaped text</name>`. */
export function textElement(name: string, text: string | number): string {
  const value = typeof text === 'number' ? integerText(text, name) : text;
  return `<${name}>${escapeText(value)}</${name}>`;
}

/** A text element that is left out when the value is undefined (optional layout fields). */
export function optionalTextElement(name: string, text: string | number | undefined): string {
  return text === undefined ? '' : textElement(name, text);
}

/** A container left out when it has no content (optional groups). */
export function optionalElement(name: string, children: string | undefined, attributes?: Attributes): string {
  return children === undefined || children === '' ? '' : element(name, children, attributes);
}

function integerText(value: number, name: string): string {
  // Only integers (codes, counters) may come as numbers: money and quantities are decimal strings upstream.
  if (!Number.isSafeInteger(value)) throw new XmlBuildError(`${name}: ${value} is not an integer`);
  return String(value);
}
