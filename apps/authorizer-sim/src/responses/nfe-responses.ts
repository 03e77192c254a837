// Answers of the NF-e 4.00 services, in the element order of the official response schemas (retEnviNFe_v4.00,
// retConsReciNFe_v4.00, retConsSitNFe_v4.00, retConsStatServ_v4.00). Values are escaped by the canonical writer.
import { element, NFE_NAMESPACE, textElement } from '@talao/fiscal-xml';
import { elementsOf, type Field } from './text-sequence.js';

export const SIM_VERSION = 'TALAO-SIM-1.0';
/** verAplic: every answer names the simulator's version as the application that wrote it. */
export const VER_APLIC: Field = ['verAplic', SIM_VERSION];

export interface AnswerHeader {
  tpAmb: '1' | '2';
  cStat: string;
  xMotivo: string;
  cUF: string;
  dhRecbto: string;
}

export interface ProtocolInfo {
  tpAmb: '1' | '2';
  chNFe: string;
  dhRecbto: string;
  nProt?: string;
  digVal?: string;
  cStat: string;
  xMotivo: string;
}

export function protNFe(info: ProtocolInfo): string {
  const body = elementsOf(info, [
    'tpAmb',
    VER_APLIC,
    'chNFe',
    'dhRecbto',
    ['nProt', info.nProt || undefined],
    ['digVal', info.digVal || undefined],
    'cStat',
    'xMotivo',
  ]);
  return element('protNFe', element('infProt', body), { versao: '4.00' });
}

function header(h: AnswerHeader): string {
  return elementsOf(h, ['tpAmb', VER_APLIC, 'cStat', 'xMotivo', 'cUF', 'dhRecbto']);
}

/** retEnviNFe: lot-level answer alone, with the NF-e's protocol (sync, 104), or with a receipt (async, 103). */
export function retEnviNFe(h: AnswerHeader, detail?: { protNFe: string } | { nRec: string; tMed: number }): string {
  let tail = '';
  if (detail && 'protNFe' in detail) tail = detail.protNFe;
  else if (detail) tail = element('infRec', textElement('nRec', detail.nRec) + textElement('tMed', String(detail.tMed)));
  return element('retEnviNFe', header(h) + tail, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

export function retConsReciNFe(h: AnswerHeader & { nRec: string }, protocols: string[]): string {
  const body = elementsOf(h, ['tpAmb', VER_APLIC, 'nRec', 'cStat', 'xMotivo', 'cUF', 'dhRecbto']) + protocols.join('');
  return element('retConsReciNFe', body, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

export function retConsStatServ(h: AnswerHeader, tMed?: number): string {
  const body = header(h) + (tMed === undefined ? '' : textElement('tMed', String(tMed)));
  return element('retConsStatServ', body, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

/** retConsSitNFe: the protocol and the registered events (procEventoNFe, as stored) of one NF-e. */
export function retConsSitNFe(h: AnswerHeader & { chNFe: string }, protocol?: string, procEvents: string[] = []): string {
  const body = header(h) + textElement('chNFe', h.chNFe) + (protocol ?? '') + procEvents.join('');
  return element('retConsSitNFe', body, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}
