// retConsReciNFe (NFeRetAutorizacao4), the one answer fiscal-xml has no reader for: the result of an asynchronous
// lot, read with fiscal-xml's hardened field reader and its protNFe reader, into the same NfeProtocol shape as the
// synchronous answer.
import {
  type AuthorizerStatus,
  childrenOf,
  fiscalResponse,
  type NfeProtocol,
  rawElement,
  readFields,
  readProtocol,
  statusOf,
} from '@talao/fiscal-xml';

export interface RetConsReciNFe {
  readonly environment: string;
  readonly receipt: string;
  readonly status: AuthorizerStatus;
  readonly protocols: readonly NfeProtocol[];
}

export function parseRetConsReciNFe(xml: string): RetConsReciNFe {
  const node = fiscalResponse(xml, 'retConsReciNFe');
  const protocols = childrenOf(node, 'protNFe');
  // One NF-e per lot: the single protNFe is kept byte for byte for nfeProc.
  const rawXml = protocols.length === 1 ? rawElement(xml, 'protNFe') : undefined;
  return {
    ...readFields(node, 'retConsReciNFe', { environment: 'tpAmb', receipt: 'nRec', status: statusOf }),
    protocols: protocols.map((prot) => readProtocol(prot, rawXml)),
  };
}
