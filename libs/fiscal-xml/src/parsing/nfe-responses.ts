// Readers of the SEFAZ NF-e 4.00 answers the platform acts on. Each takes either the SOAP 1.2 envelope or the bare
// response document, and returns plain values; codes stay strings (cStat "100"), as the authorizers send them.
import {
  attributeOf,
  childOf,
  childrenOf,
  optionalText,
  rawElement,
  readFields,
  requiredChild,
  requiredText,
  textOf,
  type XmlObject,
} from './hardened-xml.js';
import { fiscalResponse } from './soap-envelope.js';

/** cStat + xMotivo: the authorizer's own code and message. */
export interface AuthorizerStatus {
  readonly code: string;
  readonly message: string;
}

export function statusOf(node: XmlObject, path: string): AuthorizerStatus {
  return { code: requiredText(node, 'cStat', path), message: requiredText(node, 'xMotivo', path) };
}

/** protNFe/infProt: the authorization (or denial / rejection) of one NF-e. */
export interface NfeProtocol {
  readonly environment: string;
  readonly applicationVersion: string;
  readonly accessKey: string;
  readonly receivedAt: string;
  readonly protocolNumber?: string;
  readonly digestValue?: string;
  readonly status: AuthorizerStatus;
  /** The protNFe element exactly as received, to join the signed NFe in nfeProc. */
  readonly rawXml?: string;
}

export function readProtocol(protNFe: XmlObject, rawXml: string | undefined): NfeProtocol {
  const protocol = readFields(requiredChild(protNFe, 'infProt', 'protNFe'), 'infProt', {
    environment: 'tpAmb',
    applicationVersion: 'verAplic',
    accessKey: 'chNFe',
    receivedAt: 'dhRecbto',
    protocolNumber: optionalText('nProt'),
    digestValue: optionalText('digVal'),
    status: statusOf,
  });
  return { ...protocol, rawXml };
}

/** The answer's protNFe, if any, with its exact text (for nfeProc). */
export function protocolIn(node: XmlObject, xml: string): NfeProtocol | undefined {
  const prot = childOf(node, 'protNFe');
  return prot && readProtocol(prot, rawElement(xml, 'protNFe'));
}

/** tpAmb, cUF, cStat and xMotivo: how the answers about one state's documents and service begin. */
function stateAnswerHead(node: XmlObject, path: string): { environment: string; ufCode: string; status: AuthorizerStatus } {
  return { environment: requiredText(node, 'tpAmb', path), ufCode: requiredText(node, 'cUF', path), status: statusOf(node, path) };
}

export interface RetEnviNFe {
  readonly environment: string;
  readonly ufCode: string;
  readonly status: AuthorizerStatus;
  readonly receivedAt?: string;
  /** nRec, when the authorizer answered asynchronously (cStat 103): poll NFeRetAutorizacao4 with it. */
  readonly receipt?: string;
  readonly protocol?: NfeProtocol;
}

export function parseRetEnviNFe(xml: string): RetEnviNFe {
  const node = fiscalResponse(xml, 'retEnviNFe');
  const receipt = childOf(node, 'infRec');
  return {
    ...stateAnswerHead(node, 'retEnviNFe'),
    receivedAt: textOf(node, 'dhRecbto'),
    receipt: receipt && textOf(receipt, 'nRec'),
    protocol: protocolIn(node, xml),
  };
}

/** retEvento/infEvento: the registration (or rejection) of one event. */
export interface EventResult {
  readonly status: AuthorizerStatus;
  readonly orgao: string;
  readonly accessKey?: string;
  readonly type?: string;
  readonly sequence?: string;
  readonly description?: string;
  readonly registeredAt?: string;
  readonly protocolNumber?: string;
}

export function readEventResult(retEvento: XmlObject): EventResult {
  const info = requiredChild(retEvento, 'infEvento', 'retEvento');
  return {
    status: statusOf(info, 'retEvento/infEvento'),
    orgao: requiredText(info, 'cOrgao', 'retEvento/infEvento'),
    accessKey: textOf(info, 'chNFe'),
    type: textOf(info, 'tpEvento'),
    sequence: textOf(info, 'nSeqEvento'),
    description: textOf(info, 'xEvento'),
    registeredAt: textOf(info, 'dhRegEvento'),
    protocolNumber: textOf(info, 'nProt'),
  };
}

export interface RetEnvEvento {
  readonly lotId: string;
  readonly environment: string;
  readonly orgao: string;
  readonly status: AuthorizerStatus;
  readonly results: readonly EventResult[];
}

export function parseRetEnvEvento(xml: string): RetEnvEvento {
  return readFields(fiscalResponse(xml, 'retEnvEvento'), 'retEnvEvento', {
    lotId: 'idLote',
    environment: 'tpAmb',
    orgao: 'cOrgao',
    status: statusOf,
    results: (node) => childrenOf(node, 'retEvento').map(readEventResult),
  });
}

/** procEventoNFe: a registered event as the authorizer keeps it (the signed event and its result). */
export interface ProcessedEvent {
  readonly accessKey: string;
  readonly type: string;
  readonly sequence: string;
  readonly eventAt: string;
  readonly result: EventResult;
}

export function readProcessedEvent(procEventoNFe: XmlObject): ProcessedEvent {
  const evento = requiredChild(procEventoNFe, 'evento', 'procEventoNFe');
  const signed = readFields(requiredChild(evento, 'infEvento', 'procEventoNFe/evento'), 'evento/infEvento', {
    accessKey: 'chNFe',
    type: 'tpEvento',
    sequence: 'nSeqEvento',
    eventAt: 'dhEvento',
  });
  return { ...signed, result: readEventResult(requiredChild(procEventoNFe, 'retEvento', 'procEventoNFe')) };
}

export interface RetConsSitNFe {
  readonly environment: string;
  readonly ufCode: string;
  readonly status: AuthorizerStatus;
  readonly accessKey?: string;
  readonly protocol?: NfeProtocol;
  readonly events: readonly ProcessedEvent[];
}

export function parseRetConsSitNFe(xml: string): RetConsSitNFe {
  const node = fiscalResponse(xml, 'retConsSitNFe');
  return {
    ...stateAnswerHead(node, 'retConsSitNFe'),
    accessKey: textOf(node, 'chNFe'),
    protocol: protocolIn(node, xml),
    events: childrenOf(node, 'procEventoNFe').map(readProcessedEvent),
  };
}

export interface RetInutNFe {
  readonly environment: string;
  readonly status: AuthorizerStatus;
  readonly ufCode: string;
  readonly year?: string;
  readonly cnpj?: string;
  readonly model?: string;
  readonly series?: string;
  readonly firstNumber?: string;
  readonly lastNumber?: string;
  readonly receivedAt: string;
  readonly protocolNumber?: string;
}

export function parseRetInutNFe(xml: string): RetInutNFe {
  const info = requiredChild(fiscalResponse(xml, 'retInutNFe'), 'infInut', 'retInutNFe');
  return {
    environment: requiredText(info, 'tpAmb', 'infInut'),
    status: statusOf(info, 'infInut'),
    ufCode: requiredText(info, 'cUF', 'infInut'),
    year: textOf(info, 'ano'),
    cnpj: textOf(info, 'CNPJ'),
    model: textOf(info, 'mod'),
    series: textOf(info, 'serie'),
    firstNumber: textOf(info, 'nNFIni'),
    lastNumber: textOf(info, 'nNFFin'),
    receivedAt: requiredText(info, 'dhRecbto', 'infInut'),
    protocolNumber: textOf(info, 'nProt'),
  };
}

export interface RetConsStatServ {
  readonly environment: string;
  readonly ufCode: string;
  readonly status: AuthorizerStatus;
  readonly receivedAt: string;
  /** tMed: the authorizer's average processing time, seconds. */
  readonly averageSeconds?: string;
  /** dhRetorno: when the authorizer expects to be back, if it is down. */
  readonly expectedReturnAt?: string;
  readonly observation?: string;
  readonly version?: string;
}

export function parseRetConsStatServ(xml: string): RetConsStatServ {
  const node = fiscalResponse(xml, 'retConsStatServ');
  return {
    ...stateAnswerHead(node, 'retConsStatServ'),
    receivedAt: requiredText(node, 'dhRecbto', 'retConsStatServ'),
    averageSeconds: textOf(node, 'tMed'),
    expectedReturnAt: textOf(node, 'dhRetorno'),
    observation: textOf(node, 'xObs'),
    version: attributeOf(node, 'versao'),
  };
}
