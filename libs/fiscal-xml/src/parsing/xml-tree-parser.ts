// A single-pass, well-formedness-checking XML reader for the messages exchanged with authorizers. It replaces
// XMLValidator + XMLParser of fast-xml-parser (two passes over every message, the simulator's largest cost per NF-e)
// and builds the same plain tree: namespace prefixes removed, `xmlns` declarations dropped, attributes as "@_name",
// text trimmed and decoded, an element that repeats as an array, an element with only text as its string.
// Hostile input stays refused: the caller (parseXmlTree) bounds the size and refuses DOCTYPE/ENTITY first; here any
// `<!` other than a comment or CDATA is refused, only the five predefined entities and character references are
// decoded, and nesting is bounded.
import type { XmlObject, XmlValue } from './hardened-xml.js';

export class XmlSyntaxError extends Error {
  override readonly name = 'XmlSyntaxError';
}

export const MAX_NESTED_ELEMENTS = 64;

const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const SPACES = /[ \t\r\n]*/y;
const XML_DECLARATION = /^<\?xml(?:\s+[A-Za-z]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*\?>$/;
// An unknown named reference (`&foo;`) stays literal text, never expanded; a bare `&` is malformed.
const BAD_AMPERSAND = /&(?!(?:[A-Za-z_][\w.-]*|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});)/;
const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/g;

/** Decodes the predefined entities and character references; a `&` that starts no reference is a syntax error. */
export function decodeReferences(value: string): string {
  if (!value.includes('&')) return value;
  if (BAD_AMPERSAND.test(value)) throw new XmlSyntaxError('"&" that starts no entity or character reference');
  return value.replace(REFERENCE, (_match, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return PREDEFINED[name] as string;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex as string, 16);
    if (code > 0x10ffff) throw new XmlSyntaxError(`character reference out of range: ${code}`);
    return String.fromCodePoint(code);
  });
}

interface OpenElement {
  rawName: string;
  name: string;
  node: XmlObject;
  text: string;
}

function localName(rawName: string): string {
  const colon = rawName.indexOf(':');
  const name = colon < 0 ? rawName : rawName.slice(colon + 1);
  // A plain object holds the tree: a key that would reach its prototype is refused, never assigned.
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') throw new XmlSyntaxError(`name "${name}" is refused`);
  return name;
}

/** Adds a child to the tree as parseXmlTree does: a name seen again becomes an array, in document order. */
export function addChild(parent: XmlObject, name: string, value: XmlValue): void {
  const existing = parent[name];
  if (existing === undefined) parent[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent[name] = [existing, value];
}

function readName(xml: string, at: number): string {
  NAME.lastIndex = at;
  const match = NAME.exec(xml);
  if (!match) throw new XmlSyntaxError(`a name was expected at offset ${at}`);
  return match[0];
}

function skipSpaces(xml: string, at: number): number {
  SPACES.lastIndex = at;
  SPACES.exec(xml);
  return SPACES.lastIndex;
}

/** Reads the attributes of a start tag from `at`; returns where the tag ends (after `>`) and whether it self-closes. */
function readAttributes(xml: string, at: number, node: XmlObject): { end: number; selfClosing: boolean } {
  const seen = new Set<string>();
  let i = at;
  for (;;) {
    const afterSpaces = skipSpaces(xml, i);
    const c = xml.charCodeAt(afterSpaces);
    if (c === 62 /* > */) return { end: afterSpaces + 1, selfClosing: false };
    if (c === 47 /* / */) {
      if (xml.charCodeAt(afterSpaces + 1) !== 62) throw new XmlSyntaxError(`"/>" expected at offset ${afterSpaces}`);
      return { end: afterSpaces + 2, selfClosing: true };
    }
    if (afterSpaces === i) throw new XmlSyntaxError(`white space expected before an attribute at offset ${i}`);
    const rawName = readName(xml, afterSpaces);
    if (seen.has(rawName)) throw new XmlSyntaxError(`attribute "${rawName}" repeated`);
    seen.add(rawName);
    let j = skipSpaces(xml, afterSpaces + rawName.length);
    if (xml.charCodeAt(j) !== 61 /* = */) throw new XmlSyntaxError(`attribute "${rawName}" without a value`);
    j = skipSpaces(xml, j + 1);
    const quote = xml[j];
    if (quote !== '"' && quote !== "'") throw new XmlSyntaxError(`attribute "${rawName}" value is not quoted`);
    const close = xml.indexOf(quote, j + 1);
    if (close < 0) throw new XmlSyntaxError(`attribute "${rawName}" value is not closed`);
    // Trimmed like the text, as fast-xml-parser (trimValues) did for every caller.
    const raw = xml.slice(j + 1, close).trim();
    if (raw.includes('<')) throw new XmlSyntaxError(`"<" inside the value of attribute "${rawName}"`);
    if (rawName !== 'xmlns' && !rawName.startsWith('xmlns:')) node[`@_${localName(rawName)}`] = decodeReferences(raw);
    i = close + 1;
  }
}

function closeElement(stack: OpenElement[], root: { value?: XmlObject }): void {
  const element = stack.pop() as OpenElement;
  const hasMembers = Object.keys(element.node).length > 0;
  let value: XmlValue = element.node;
  if (!hasMembers) value = element.text;
  else if (element.text !== '') element.node['#text'] = element.text;
  const parent = stack.at(-1);
  if (parent) addChild(parent.node, element.name, value);
  else root.value = { [element.name]: value };
}

function indexAfter(xml: string, token: string, from: number, what: string): number {
  const at = xml.indexOf(token, from);
  if (at < 0) throw new XmlSyntaxError(`${what} is not closed`);
  return at + token.length;
}

/** Parses `xml` in one pass, checking well-formedness; throws XmlSyntaxError on anything malformed. */
export function readXmlTree(xml: string): XmlObject {
  const stack: OpenElement[] = [];
  const root: { value?: XmlObject } = {};
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const text = xml.slice(i, textEnd).trim();
      const open = stack.at(-1);
      if (open) open.text += decodeReferences(text);
      else if (text !== '') throw new XmlSyntaxError('text outside the root element');
    }
    if (lt < 0) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 47 /* / */) {
      const gt = indexAfter(xml, '>', lt, 'an end tag');
      const name = xml.slice(lt + 2, gt - 1).trimEnd();
      const open = stack.at(-1);
      if (!open || open.rawName !== name)
        throw new XmlSyntaxError(`end tag </${name}> does not match ${open ? `<${open.rawName}>` : 'any open element'}`);
      closeElement(stack, root);
      i = gt;
    } else if (next === 63 /* ? */) {
      i = indexAfter(xml, '?>', lt + 2, 'a processing instruction');
      if (xml.startsWith('<?xml', lt) && /[\s?]/.test(xml.charAt(lt + 5))) {
        if (lt > (xml.charCodeAt(0) === 0xfeff ? 1 : 0)) throw new XmlSyntaxError('the XML declaration is only allowed at the start');
        if (!XML_DECLARATION.test(xml.slice(lt, i))) throw new XmlSyntaxError('malformed XML declaration');
      }
    } else if (next === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) i = indexAfter(xml, '-->', lt + 4, 'a comment');
      else if (xml.startsWith('<![CDATA[', lt)) {
        const open = stack.at(-1);
        if (!open) throw new XmlSyntaxError('CDATA outside the root element');
        const end = indexAfter(xml, ']]>', lt + 9, 'a CDATA section');
        open.text += xml.slice(lt + 9, end - 3).trim();
        i = end;
      } else throw new XmlSyntaxError('markup declarations are refused');
    } else {
      if (root.value !== undefined) throw new XmlSyntaxError('more than one root element');
      if (stack.length >= MAX_NESTED_ELEMENTS) throw new XmlSyntaxError(`more than ${MAX_NESTED_ELEMENTS} nested elements`);
      const rawName = readName(xml, lt + 1);
      const element: OpenElement = { rawName, name: localName(rawName), node: {}, text: '' };
      const { end, selfClosing } = readAttributes(xml, lt + 1 + rawName.length, element.node);
      stack.push(element);
      if (selfClosing) closeElement(stack, root);
      i = end;
    }
  }
  if (stack.length > 0) throw new XmlSyntaxError(`<${stack.at(-1)?.rawName}> is not closed`);
  if (root.value === undefined) throw new XmlSyntaxError('no root element');
  return root.value;
}
