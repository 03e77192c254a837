// retConsReciNFe (NFeRetAutorizacao4), the one answer fiscal-xml has no reader for: the result of an asynchronous
// lot, read with fiscal-xml's hardened primitives into the same NfeProtocol shape as the synchronous answer.
import {
  type AuthorizerStatus,
  childOf,
  childrenOf,
  fiscalResponse,
  type NfeProtocol,
  rawElement,
  textOf,
  XmlParseError,
  type XmlObject,
} from '@talao/fiscal-xml';

export interface RetConsReciNFe {
  readonly environment: string;
  readonly receipt: string;
  readonly status: AuthorizerStatus;
  readonly protocols: readonly NfeProtocol[];
}

function required(node: XmlObject, name: string, path: string): string {
  const value = textOf(node, name);
  if (value === undefined || value === '') throw new XmlParseError(`${path}: <${name}> is missing`);
  return value;
}

export function parseRetConsReciNFe(xml: string): RetConsReciNFe {
  const node = fiscalResponse(xml, 'retConsReciNFe');
  const protocols = childrenOf(node, 'protNFe');
  return {
    environment: required(node, 'tpAmb', 'retConsReciNFe'),
    receipt: required(node, 'nRec', 'retConsReciNFe'),
    status: { code: required(node, 'cStat', 'retConsReciNFe'), message: required(node, 'xMotivo', 'retConsReciNFe') },
    protocols: protocols.map((prot) => {
      const info = childOf(prot, 'infProt');
      if (!info) throw new XmlParseError('protNFe: <infProt> is missing');
      return {
        environment: required(info, 'tpAmb', 'infProt'),
        applicationVersion: required(info, 'verAplic', 'infProt'),
        accessKey: required(info, 'chNFe', 'infProt'),
        receivedAt: required(info, 'dhRecbto', 'infProt'),
        protocolNumber: textOf(info, 'nProt'),
        digestValue: textOf(info, 'digVal'),
        status: { code: required(info, 'cStat', 'infProt'), message: required(info, 'xMotivo', 'infProt') },
        // One NF-e per lot: the single protNFe is kept byte for byte for nfeProc.
        rawXml: protocols.length === 1 ? rawElement(xml, 'protNFe') : undefined,
      };
    }),
  };
}
