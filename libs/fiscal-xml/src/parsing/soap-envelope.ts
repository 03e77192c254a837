// SOAP 1.2 responses of the SEFAZ web services: Envelope/Body/<wrapper (nfeResultMsg, …Result)>/<fiscal root>.
import { childOf, type XmlObject, XmlParseError, parseXmlTree, rootOf, textOf } from './hardened-xml.js';

export class SoapFaultError extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(`SOAP fault ${code}: ${reason}`);
    this.name = 'SoapFaultError';
  }
}

function elementNames(node: XmlObject): string[] {
  return Object.keys(node).filter((n) => !n.startsWith('@_') && n !== '#text');
}

/** The fiscal element of a SOAP 1.2 response (e.g. retEnviNFe) with its name; a Fault throws SoapFaultError. */
export function unwrapSoapResponse(xml: string): { name: string; node: XmlObject } {
  const root = rootOf(parseXmlTree(xml));
  if (root.name !== 'Envelope') throw new XmlParseError(`SOAP: expected Envelope, found <${root.name}>`);
  const body = childOf(root.node, 'Body');
  if (!body) throw new XmlParseError('SOAP: Body is missing');
  const fault = childOf(body, 'Fault');
  if (fault) {
    const code = childOf(fault, 'Code');
    const reason = childOf(fault, 'Reason');
    throw new SoapFaultError((code && textOf(code, 'Value')) ?? 'unknown', (reason && textOf(reason, 'Text')) ?? 'no reason given');
  }
  // Services wrap the answer in one or two elements (nfeResultMsg; nfeDistDFeInteresseResponse/…Result): descend
  // until the fiscal element, whose name starts with "ret" in every NF-e 4.00 response.
  let node: XmlObject = body;
  for (let depth = 0; depth < 4; depth++) {
    const [name] = elementNames(node);
    if (!name) break;
    const child = childOf(node, name) as XmlObject;
    if (name.startsWith('ret')) return { name, node: child };
    node = child;
  }
  throw new XmlParseError('SOAP: no fiscal response element (ret…) in Body');
}

/** The fiscal response element of `xml` (SOAP envelope or bare), checked to be `expected`. */
export function fiscalResponse(xml: string, expected: string): XmlObject {
  const head = xml.slice(0, 512);
  const root = /<(?:[A-Za-z_][\w.-]*:)?Envelope[\s>]/.test(head) ? unwrapSoapResponse(xml) : rootOf(parseXmlTree(xml));
  if (root.name !== expected) throw new XmlParseError(`expected <${expected}>, found <${root.name}>`);
  return root.node;
}
