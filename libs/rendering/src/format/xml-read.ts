// Path reading over fiscal-xml's hardened tree ("a/b/c"): the layouts read dozens of optional fields, and a missing
// group must simply print nothing.
import { childOf, childrenOf, parseXmlTree, rootOf, textOf, XmlParseError, type XmlObject } from '@talao/fiscal-xml/parsing';
import { UnrenderableDocumentError } from '../errors.js';

export type { XmlObject };

export function nodeAt(node: XmlObject | undefined, path: string): XmlObject | undefined {
  let current = node;
  for (const name of path.split('/')) {
    if (!current) return undefined;
    current = childOf(current, name);
  }
  return current;
}

export function nodesAt(node: XmlObject | undefined, path: string): XmlObject[] {
  const names = path.split('/');
  const last = names.pop() as string;
  const parent = names.length ? nodeAt(node, names.join('/')) : node;
  return parent ? childrenOf(parent, last) : [];
}

/** The text at `path`, or undefined when any step is missing; "" stays "" (an element present and empty). */
export function textAt(node: XmlObject | undefined, path: string): string | undefined {
  const names = path.split('/');
  const last = names.pop() as string;
  const parent = names.length ? nodeAt(node, names.join('/')) : node;
  return parent ? textOf(parent, last) : undefined;
}

/** The one child element of `node` whose name starts with `prefix` (ICMS00, ICMSSN102, IPITrib…), with its name. */
export function variantOf(node: XmlObject | undefined, prefix: string): { name: string; node: XmlObject } | undefined {
  if (!node) return undefined;
  const name = Object.keys(node).find((key) => key.startsWith(prefix) && !key.startsWith('@_'));
  const child = name ? childOf(node, name) : undefined;
  return name && child ? { name, node: child } : undefined;
}

export function attributeAt(node: XmlObject | undefined, name: string): string | undefined {
  const value = node?.[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

/** Parses with fiscal-xml's hardened parser; malformed or hostile input is the caller's fault, never a crash. */
export function parseDocument(xml: string): { name: string; node: XmlObject } {
  if (typeof xml !== 'string' || xml.trim() === '') throw new UnrenderableDocumentError('the document XML is empty');
  try {
    return rootOf(parseXmlTree(xml));
  } catch (error) {
    if (error instanceof XmlParseError) throw new UnrenderableDocumentError(error.message);
    throw error;
  }
}
