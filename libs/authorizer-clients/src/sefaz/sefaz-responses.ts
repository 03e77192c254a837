import { gunzipSync } from 'node:zlib';
import { child, children, extractElementText, findElement, parseUntrustedXml, text, type XmlNode } from './safe-xml.js';

export class UnreadableResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableResponseError';
  }
}

export interface SefazStatus {
  tpAmb: string;
  cStat: string;
  xMotivo: string;
}

export interface ProtNFeResult {
  chNFe: string;
  cStat: string;
  xMotivo: string;
  nProt?: string;
  dhRecbto?: string;
  digVal?: string;
  /** The protNFe element as received, standalone (NF-e namespace), to assemble nfeProc. */
  xml?: string;
}

function required(node: XmlNode, name: string, where: string): string {
  const value = text(node, name);
  if (value === undefined || value === '') throw new UnreadableResponseError(`${where}: missing ${name}`);
  return value;
}

function status(node: XmlNode, where: string): SefazStatus {
  return { tpAmb: required(node, 'tpAmb', where), cStat: required(node, 'cStat', where), xMotivo: text(node, 'xMotivo') ?? '' };
}

/** Finds the data message in a SOAP 1.2 answer (4.00 `nfeResultMsg`, DistDFe `…Result`, or older wrappers). */
export function readSoapResult(body: string, root: string): { node: XmlNode; document: XmlNode } {
  const document = parseUntrustedXml(body);
  const envelope = child(document, 'Envelope');
  const soapBody = child(envelope, 'Body');
  if (!soapBody) throw new UnreadableResponseError('not a SOAP envelope');
  const fault = child(soapBody, 'Fault');
  if (fault) throw new UnreadableResponseError(`SOAP fault: ${JSON.stringify(fault).slice(0, 500)}`);
  const node = findElement(soapBody, root);
  if (!node) throw new UnreadableResponseError(`no ${root} in the SOAP body`);
  return { node, document };
}

function readProt(prot: XmlNode, raw: string | undefined): ProtNFeResult {
  const inf = child(prot, 'infProt');
  if (!inf) throw new UnreadableResponseError('protNFe without infProt');
  return {
    chNFe: required(inf, 'chNFe', 'infProt'),
    cStat: required(inf, 'cStat', 'infProt'),
    xMotivo: text(inf, 'xMotivo') ?? '',
    nProt: text(inf, 'nProt'),
    dhRecbto: text(inf, 'dhRecbto'),
    digVal: text(inf, 'digVal'),
    xml: raw,
  };
}

export interface RetEnviNFe extends SefazStatus {
  cUF?: string;
  dhRecbto?: string;
  /** Receipt number of an asynchronous lot (cStat 103). */
  nRec?: string;
  protNFe?: ProtNFeResult;
}

export function readRetEnviNFe(body: string): RetEnviNFe {
  const { node } = readSoapResult(body, 'retEnviNFe');
  const prot = child(node, 'protNFe');
  return {
    ...status(node, 'retEnviNFe'),
    cUF: text(node, 'cUF'),
    dhRecbto: text(node, 'dhRecbto'),
    nRec: text(child(node, 'infRec'), 'nRec'),
    protNFe: prot ? readProt(prot, extractElementText(body, 'protNFe')) : undefined,
  };
}

export interface RetConsReciNFe extends SefazStatus {
  nRec?: string;
  protNFe: ProtNFeResult[];
}

export function readRetConsReciNFe(body: string): RetConsReciNFe {
  const { node } = readSoapResult(body, 'retConsReciNFe');
  const prots = children(node, 'protNFe');
  return {
    ...status(node, 'retConsReciNFe'),
    nRec: text(node, 'nRec'),
    protNFe: prots.map((p) => readProt(p, prots.length === 1 ? extractElementText(body, 'protNFe') : undefined)),
  };
}

export interface RegisteredEvent {
  tpEvento?: string;
  nSeqEvento?: string;
  cStat: string;
  xMotivo: string;
  chNFe?: string;
  nProt?: string;
  dhRegEvento?: string;
}

function readRetEvento(retEvento: XmlNode): RegisteredEvent {
  const inf = child(retEvento, 'infEvento');
  if (!inf) throw new UnreadableResponseError('retEvento without infEvento');
  return {
    tpEvento: text(inf, 'tpEvento'),
    nSeqEvento: text(inf, 'nSeqEvento'),
    cStat: required(inf, 'cStat', 'retEvento'),
    xMotivo: text(inf, 'xMotivo') ?? '',
    chNFe: text(inf, 'chNFe'),
    nProt: text(inf, 'nProt'),
    dhRegEvento: text(inf, 'dhRegEvento'),
  };
}

export interface RetConsSitNFe extends SefazStatus {
  chNFe?: string;
  protNFe?: ProtNFeResult;
  events: RegisteredEvent[];
}

export function readRetConsSitNFe(body: string): RetConsSitNFe {
  const { node } = readSoapResult(body, 'retConsSitNFe');
  const prot = child(node, 'protNFe');
  return {
    ...status(node, 'retConsSitNFe'),
    chNFe: text(node, 'chNFe'),
    protNFe: prot ? readProt(prot, extractElementText(body, 'protNFe')) : undefined,
    events: children(node, 'procEventoNFe').flatMap((p) => children(p, 'retEvento').map(readRetEvento)),
  };
}

export interface RetEnvEvento extends SefazStatus {
  idLote?: string;
  events: RegisteredEvent[];
}

export function readRetEnvEvento(body: string): RetEnvEvento {
  const { node } = readSoapResult(body, 'retEnvEvento');
  return { ...status(node, 'retEnvEvento'), idLote: text(node, 'idLote'), events: children(node, 'retEvento').map(readRetEvento) };
}

export interface RetInutNFe extends SefazStatus {
  nProt?: string;
  dhRecbto?: string;
  /** retInutNFe as received, standalone, to assemble procInutNFe. */
  xml?: string;
}

export function readRetInutNFe(body: string): RetInutNFe {
  const { node } = readSoapResult(body, 'retInutNFe');
  const inf = child(node, 'infInut');
  if (!inf) throw new UnreadableResponseError('retInutNFe without infInut');
  return { ...status(inf, 'infInut'), nProt: text(inf, 'nProt'), dhRecbto: text(inf, 'dhRecbto'), xml: extractElementText(body, 'retInutNFe') };
}

export interface RetConsStatServ extends SefazStatus {
  cUF?: string;
  dhRecbto?: string;
  tMed?: string;
  dhRetorno?: string;
  xObs?: string;
}

export function readRetConsStatServ(body: string): RetConsStatServ {
  const { node } = readSoapResult(body, 'retConsStatServ');
  return {
    ...status(node, 'retConsStatServ'),
    cUF: text(node, 'cUF'),
    dhRecbto: text(node, 'dhRecbto'),
    tMed: text(node, 'tMed'),
    dhRetorno: text(node, 'dhRetorno'),
    xObs: text(node, 'xObs'),
  };
}

export interface DistributedDocument {
  nsu: string;
  /** e.g. `resNFe_v1.01.xsd`, `procNFe_v4.00.xsd`, `resEvento_v1.01.xsd`, `procEventoNFe_v1.00.xsd`. */
  schema: string;
  /** The document, gunzipped. */
  xml: string;
}

export interface RetDistDFeInt extends SefazStatus {
  ultNSU?: string;
  maxNSU?: string;
  dhResp?: string;
  documents: DistributedDocument[];
}

const MAX_DOC_BYTES = 5 * 1024 * 1024;

export function readRetDistDFeInt(body: string): RetDistDFeInt {
  const { node } = readSoapResult(body, 'retDistDFeInt');
  const documents = children(child(node, 'loteDistDFeInt'), 'docZip').map((doc) => {
    const nsu = String(doc['@NSU'] ?? '');
    const schema = String(doc['@schema'] ?? '');
    const payload = typeof doc['#text'] === 'string' ? doc['#text'] : '';
    if (!/^\d{15}$/.test(nsu) || schema === '' || payload === '') throw new UnreadableResponseError('docZip without NSU, schema or content');
    // maxOutputLength bounds a gzip bomb.
    const xml = gunzipSync(Buffer.from(payload, 'base64'), { maxOutputLength: MAX_DOC_BYTES }).toString('utf8');
    return { nsu, schema, xml };
  });
  return { ...status(node, 'retDistDFeInt'), ultNSU: text(node, 'ultNSU'), maxNSU: text(node, 'maxNSU'), dhResp: text(node, 'dhResp'), documents };
}
