// @talao/fiscal-xml/parsing: the hardened XML tree reader alone, for a process that reads documents but never
// validates one (the pdf-renderer). The package's main entry also loads libxml2-wasm for XSD validation, whose
// instance holds about 19 MB of WebAssembly memory from the moment it is imported.
export {
  attributeOf,
  childOf,
  childrenOf,
  parseXmlTree,
  rawElement,
  requiredChild,
  requiredText,
  rootOf,
  textOf,
  XmlParseError,
  type XmlObject,
  type XmlValue,
} from './hardened-xml.js';
