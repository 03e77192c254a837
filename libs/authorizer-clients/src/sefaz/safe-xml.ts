import { XMLParser } from 'fast-xml-parser';

export class HostileXmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostileXmlError';
  }
}

const MAX_XML_CHARS = 20 * 1024 * 1024;

// Values stay strings (cStat "100", keys with leading zeros); prefixes are dropped because authorizers differ in
// how they prefix the SOAP and NF-e namespaces; a DOCTYPE is refused before parsing, so no entity can be declared.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  maxNestedTags: 64,
});

export type XmlNode = Record<string, unknown>;

/** Parses an authorizer's answer, refusing DTDs (XXE, entity expansion) and oversized input before any parsing. */
export function parseUntrustedXml(xml: string): XmlNode {
  if (xml.length > MAX_XML_CHARS) throw new HostileXmlError(`XML larger than ${MAX_XML_CHARS} characters`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new HostileXmlError('XML with a DTD is refused');
  return parser.parse(xml) as XmlNode;
}

export function child(node: unknown, name: string): XmlNode | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const value = (node as XmlNode)[name];
  if (Array.isArray(value)) return value[0] as XmlNode;
  return typeof value === 'object' && value !== null ? (value as XmlNode) : undefined;
}

export function children(node: unknown, name: string): XmlNode[] {
  if (typeof node !== 'object' || node === null) return [];
  const value = (node as XmlNode)[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is XmlNode => typeof v === 'object' && v !== null);
}

/** Text of a leaf element (also when it carries attributes, where the parser puts the text under `#text`). */
export function text(node: unknown, name: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  let value = (node as XmlNode)[name];
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && '#text' in value) return String((value as XmlNode)['#text']);
  return undefined;
}

/** Depth-first search for the first element named `name` (namespace prefixes already removed). */
export function findElement(node: unknown, name: string, depth = 0): XmlNode | undefined {
  if (typeof node !== 'object' || node === null || depth > 12) return undefined;
  const direct = child(node, name);
  if (direct) return direct;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key.startsWith('@') || key === '#text') continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const found = findElement(item, name, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The exact text of the first `<name …>…</name>` element in the default namespace, re-rooted with the NF-e
 * namespace so it stands alone (e.g. protNFe to build nfeProc). Undefined when the element is prefixed or absent.
 */
export function extractElementText(xml: string, name: string, namespace = 'http://www.portalfiscal.inf.br/nfe'): string | undefined {
  const open = new RegExp(`<${name}(?=[\\s>/])`).exec(xml);
  if (!open) return undefined;
  const close = `</${name}>`;
  const end = xml.indexOf(close, open.index);
  if (end < 0) return undefined;
  const element = xml.slice(open.index, end + close.length);
  const startTag = element.slice(0, element.indexOf('>') + 1);
  return startTag.includes('xmlns=') ? element : element.replace(`<${name}`, `<${name} xmlns="${namespace}"`);
}
