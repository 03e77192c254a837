// Parsing of XML that comes from outside (authorizers, distribution feeds): bounded in size, DOCTYPE and ENTITY
// refused before the parser sees them (no XXE, no entity expansion), well-formedness checked in
// the same single pass that builds the tree (xml-tree-parser.ts). Only the five predefined entities and character references are decoded, by us.
import { readXmlTree, XmlSyntaxError } from './xml-tree-parser.js';

export class XmlParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlParseError';
  }
}

/** 16 MiB: a DistDFe batch of 50 full NF-e fits with room; anything larger is not a fiscal response. */
export const DEFAULT_MAX_XML_CHARS = 16 * 1024 * 1024;

export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

const FORBIDDEN_DECLARATION = /<!\s*(DOCTYPE|ENTITY)/i;
const ENTITY_REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlText(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(ENTITY_REFERENCE, (_match, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return PREDEFINED[name] as string;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex as string, 16);
    if (code > 0x10ffff) throw new XmlParseError(`character reference out of range: ${code}`);
    return String.fromCodePoint(code);
  });
}

/** Refuses what a fiscal response never contains and an attacker would use: oversize input, DOCTYPE, ENTITY. */
export function assertSafeXml(xml: string, maxChars = DEFAULT_MAX_XML_CHARS): void {
  if (typeof xml !== 'string') throw new XmlParseError('XML: expected a string');
  if (xml.length > maxChars) throw new XmlParseError(`XML: ${xml.length} characters exceeds the limit of ${maxChars}`);
  if (FORBIDDEN_DECLARATION.test(xml)) throw new XmlParseError('XML: DOCTYPE and ENTITY declarations are refused');
}

/** Parses a hostile-safe XML string into a plain tree (namespace prefixes removed, attributes as "@_name"). */
export function parseXmlTree(xml: string, maxChars = DEFAULT_MAX_XML_CHARS): XmlObject {
  assertSafeXml(xml, maxChars);
  try {
    return readXmlTree(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new XmlParseError(`XML: not well-formed (${error.message})`);
    throw error;
  }
}

// Accessors over the tree. An element that repeats becomes an array; one that does not is a value; these hide it.

function asList(value: XmlValue | undefined): XmlValue[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function asObject(value: XmlValue): XmlObject {
  if (typeof value === 'string') return value === '' ? {} : { '#text': value };
  return value as XmlObject;
}

export function childrenOf(node: XmlObject, name: string): XmlObject[] {
  return asList(node[name]).map(asObject);
}

export function childOf(node: XmlObject, name: string): XmlObject | undefined {
  return childrenOf(node, name)[0];
}

export function requiredChild(node: XmlObject, name: string, path: string): XmlObject {
  const child = childOf(node, name);
  if (!child) throw new XmlParseError(`${path}: <${name}> is missing`);
  return child;
}

export function textOf(node: XmlObject, name: string): string | undefined {
  const value = asList(node[name])[0];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  const text = (value as XmlObject)['#text'];
  return typeof text === 'string' ? text : '';
}

export function requiredText(node: XmlObject, name: string, path: string): string {
  const value = textOf(node, name);
  if (value === undefined) throw new XmlParseError(`${path}: <${name}> is missing`);
  return value;
}

export function attributeOf(node: XmlObject, name: string): string | undefined {
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

/** A readFields entry for a child that may be absent: its text, or undefined. */
export interface OptionalText {
  readonly optional: string;
}

export function optionalText(name: string): OptionalText {
  return { optional: name };
}

/** How readFields reads one property: the name of a child whose text is required, optionalText(name), or a reader. */
export type FieldSource = string | OptionalText | ((node: XmlObject, path: string) => unknown);

/** What readFields reads with `Table`: required texts are strings, optional ones may be undefined, readers give theirs. */
export type FieldValues<Table> = {
  -readonly [P in keyof Table]: Table[P] extends string
    ? string
    : Table[P] extends (node: XmlObject, path: string) => infer Value
      ? Value
      : string | undefined;
};

/**
 * The properties of one element as a table lists them (property → source), in the table's order: an answer's many
 * plain fields written once each, not as a call per field. A required text that is missing fails with `path`.
 */
export function readFields<Table extends Readonly<Record<string, FieldSource>>>(
  node: XmlObject,
  path: string,
  table: Table,
): FieldValues<Table> {
  const values: Record<string, unknown> = {};
  for (const [property, source] of Object.entries(table)) {
    if (typeof source === 'string') values[property] = requiredText(node, source, path);
    else if (typeof source === 'function') values[property] = source(node, path);
    else values[property] = textOf(node, source.optional);
  }
  return values as FieldValues<Table>;
}

/** The single element at the root of a parsed document, with its name. */
export function rootOf(tree: XmlObject): { name: string; node: XmlObject } {
  const names = Object.keys(tree).filter((n) => !n.startsWith('@_') && n !== '#text');
  if (names.length !== 1) throw new XmlParseError(`XML: expected one root element, found ${names.length}`);
  const name = names[0] as string;
  return { name, node: asObject(asList(tree[name])[0] as XmlValue) };
}

/**
 * The exact text of the first element `name` in `xml` (start tag to end tag), for parts that must be kept byte
 * for byte (protNFe joins the signed NFe in nfeProc). Assumes no nested element of the same name, true of protNFe.
 */
export function rawElement(xml: string, name: string): string | undefined {
  const start = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}[\\s>]`).exec(xml);
  if (!start) return undefined;
  const prefix = /^<([A-Za-z_][\w.-]*:)?/.exec(start[0])?.[1] ?? '';
  const closeTag = `</${prefix}${name}>`;
  const end = xml.indexOf(closeTag, start.index);
  return end < 0 ? undefined : xml.slice(start.index, end + closeTag.length);
}
