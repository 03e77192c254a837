// retDistDFeInt 1.01 (NFeDistribuicaoDFe): the feed of documents addressed to a tax id. Each docZip is gzip+base64
// of one document (resNFe, resEvento, procNFe or procEventoNFe); we inflate it (bounded), keep its exact XML and
// read a summary.
import { decodeGzipBase64 } from './gzip-base64.js';
import {
  attributeOf,
  childOf,
  childrenOf,
  optionalText,
  parseXmlTree,
  readFields,
  requiredChild,
  requiredText,
  rootOf,
  textOf,
  type XmlObject,
  XmlParseError,
} from './hardened-xml.js';
import { type AuthorizerStatus, type NfeProtocol, type ProcessedEvent, protocolIn, readProcessedEvent, statusOf } from './nfe-responses.js';
import { fiscalResponse } from './soap-envelope.js';

/** resNFe: the summary of an NF-e addressed to us, before the recipient manifests awareness. */
export interface NfeSummary {
  readonly accessKey: string;
  readonly issuerTaxId: string;
  readonly issuerName: string;
  readonly issuerStateRegistration?: string;
  readonly issuedAt: string;
  /** tpNF: 0 inbound, 1 outbound (from the issuer's point of view). */
  readonly operationType: string;
  readonly total: string;
  readonly digestValue?: string;
  readonly receivedAt: string;
  readonly protocolNumber?: string;
  /** cSitNFe: 1 authorized, 2 denied, 3 cancelled. */
  readonly situation: string;
}

/** resEvento: the summary of an event on an NF-e of interest. */
export interface EventSummary {
  readonly orgao: string;
  readonly authorTaxId: string;
  readonly accessKey: string;
  readonly eventAt: string;
  readonly type: string;
  readonly sequence: string;
  readonly description: string;
  readonly receivedAt: string;
  readonly protocolNumber: string;
}

/** procNFe (nfeProc): a full authorized NF-e. */
export interface ProcessedNfe {
  readonly accessKey: string;
  readonly version?: string;
  readonly issuerTaxId?: string;
  readonly protocol?: NfeProtocol;
}

export type DistributedDocument =
  | { readonly kind: 'resNFe'; readonly nsu: string; readonly schema: string; readonly xml: string; readonly summary: NfeSummary }
  | { readonly kind: 'resEvento'; readonly nsu: string; readonly schema: string; readonly xml: string; readonly summary: EventSummary }
  | { readonly kind: 'procNFe'; readonly nsu: string; readonly schema: string; readonly xml: string; readonly summary: ProcessedNfe }
  | {
      readonly kind: 'procEventoNFe';
      readonly nsu: string;
      readonly schema: string;
      readonly xml: string;
      readonly summary: ProcessedEvent;
    }
  /** A document type this platform does not read (kept, so the NSU still advances). */
  | { readonly kind: 'other'; readonly nsu: string; readonly schema: string; readonly xml: string; readonly root: string };

export interface RetDistDFeInt {
  readonly environment: string;
  readonly status: AuthorizerStatus;
  readonly respondedAt: string;
  readonly lastNsu?: string;
  readonly maxNsu?: string;
  readonly documents: readonly DistributedDocument[];
}

function taxIdOf(node: XmlObject): string | undefined {
  return textOf(node, 'CNPJ') ?? textOf(node, 'CPF');
}

/** The summaries' tax id: '' when the summary names neither a CNPJ nor a CPF. */
function summaryTaxIdOf(node: XmlObject): string {
  return taxIdOf(node) ?? '';
}

function readNfeSummary(node: XmlObject): NfeSummary {
  return readFields(node, 'resNFe', {
    accessKey: 'chNFe',
    issuerTaxId: summaryTaxIdOf,
    issuerName: 'xNome',
    issuerStateRegistration: optionalText('IE'),
    issuedAt: 'dhEmi',
    operationType: 'tpNF',
    total: 'vNF',
    digestValue: optionalText('digVal'),
    receivedAt: 'dhRecbto',
    protocolNumber: optionalText('nProt'),
    situation: 'cSitNFe',
  });
}

function readEventSummary(node: XmlObject): EventSummary {
  return readFields(node, 'resEvento', {
    orgao: 'cOrgao',
    authorTaxId: summaryTaxIdOf,
    accessKey: 'chNFe',
    eventAt: 'dhEvento',
    type: 'tpEvento',
    sequence: 'nSeqEvento',
    description: 'xEvento',
    receivedAt: 'dhRecbto',
    protocolNumber: 'nProt',
  });
}

function readProcessedNfe(node: XmlObject, xml: string): ProcessedNfe {
  const nfe = requiredChild(node, 'NFe', 'nfeProc');
  const info = requiredChild(nfe, 'infNFe', 'nfeProc/NFe');
  const id = attributeOf(info, 'Id') ?? '';
  const emit = childOf(info, 'emit');
  return {
    accessKey: id.replace(/^NFe/, ''),
    version: attributeOf(info, 'versao'),
    issuerTaxId: emit && taxIdOf(emit),
    protocol: protocolIn(node, xml),
  };
}

/** Reads one decoded distributed document (the XML inside a docZip). */
export function readDistributedDocument(nsu: string, schema: string, xml: string): DistributedDocument {
  const root = rootOf(parseXmlTree(xml));
  switch (root.name) {
    case 'resNFe':
      return { kind: 'resNFe', nsu, schema, xml, summary: readNfeSummary(root.node) };
    case 'resEvento':
      return { kind: 'resEvento', nsu, schema, xml, summary: readEventSummary(root.node) };
    case 'nfeProc':
      return { kind: 'procNFe', nsu, schema, xml, summary: readProcessedNfe(root.node, xml) };
    case 'procEventoNFe':
      return { kind: 'procEventoNFe', nsu, schema, xml, summary: readProcessedEvent(root.node) };
    default:
      return { kind: 'other', nsu, schema, xml, root: root.name };
  }
}

export function parseRetDistDFeInt(xml: string): RetDistDFeInt {
  const node = fiscalResponse(xml, 'retDistDFeInt');
  const lot = childOf(node, 'loteDistDFeInt');
  const documents = (lot ? childrenOf(lot, 'docZip') : []).map((docZip) => {
    const nsu = attributeOf(docZip, 'NSU');
    const schema = attributeOf(docZip, 'schema');
    const payload = docZip['#text'];
    if (!nsu || !schema || typeof payload !== 'string') throw new XmlParseError('docZip: NSU, schema and content are required');
    return readDistributedDocument(nsu, schema, decodeGzipBase64(payload));
  });
  return {
    environment: requiredText(node, 'tpAmb', 'retDistDFeInt'),
    status: statusOf(node, 'retDistDFeInt'),
    respondedAt: requiredText(node, 'dhResp', 'retDistDFeInt'),
    lastNsu: textOf(node, 'ultNSU'),
    maxNsu: textOf(node, 'maxNSU'),
    documents,
  };
}
