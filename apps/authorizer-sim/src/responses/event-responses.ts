// Answers of NFeRecepcaoEvento4, NFeInutilizacao4 and NFeDistribuicaoDFe, in the element order of the official
// schemas (retEnvEvento_v1.00, retInutNFe_v4.00, retDistDFeInt_v1.01, resNFe_v1.01, resEvento_v1.01).
import { gzipSync } from 'node:zlib';
import { element, NFE_NAMESPACE } from '@talao/fiscal-xml';
import { VER_APLIC } from './nfe-responses.js';
import { elementsOf, taxIdField, textElements } from './text-sequence.js';

export interface RetEventoInfo {
  tpAmb: '1' | '2';
  cOrgao: string;
  cStat: string;
  xMotivo: string;
  chNFe?: string;
  tpEvento?: string;
  xEvento?: string;
  nSeqEvento?: number;
  dhRegEvento: string;
  nProt?: string;
}

export function retEvento(info: RetEventoInfo): string {
  const body = elementsOf(info, [
    'tpAmb',
    VER_APLIC,
    'cOrgao',
    'cStat',
    'xMotivo',
    ['chNFe', info.chNFe || undefined],
    ['tpEvento', info.tpEvento || undefined],
    ['xEvento', info.xEvento || undefined],
    'nSeqEvento',
    'dhRegEvento',
    ['nProt', info.nProt || undefined],
  ]);
  return element('retEvento', element('infEvento', body), { versao: '1.00' });
}

export function retEnvEvento(
  h: { idLote: string; tpAmb: '1' | '2'; cOrgao: string; cStat: string; xMotivo: string },
  events: string[] = [],
): string {
  const body = elementsOf(h, ['idLote', 'tpAmb', VER_APLIC, 'cOrgao', 'cStat', 'xMotivo']) + events.join('');
  return element('retEnvEvento', body, { xmlns: NFE_NAMESPACE, versao: '1.00' });
}

/** procEventoNFe: the signed event as received and its registration, as consSitNFe and DistDFe serve it. */
export function procEventoNFe(signedEvento: string, registration: string): string {
  return element('procEventoNFe', signedEvento + registration, { xmlns: NFE_NAMESPACE, versao: '1.00' });
}

export interface RetInutInfo {
  tpAmb: '1' | '2';
  cStat: string;
  xMotivo: string;
  cUF: string;
  dhRecbto: string;
  range?: { ano: string; CNPJ: string; mod: string; serie: number; nNFIni: number; nNFFin: number };
  nProt?: string;
}

export function retInutNFe(info: RetInutInfo): string {
  const r = info.range;
  const body = textElements([
    ['tpAmb', info.tpAmb],
    VER_APLIC,
    ['cStat', info.cStat],
    ['xMotivo', info.xMotivo],
    ['cUF', info.cUF],
    ['ano', r?.ano],
    ['CNPJ', r?.CNPJ],
    ['mod', r?.mod],
    ['serie', r?.serie],
    ['nNFIni', r?.nNFIni],
    ['nNFFin', r?.nNFFin],
    ['dhRecbto', info.dhRecbto],
    ['nProt', info.nProt || undefined],
  ]);
  return element('retInutNFe', element('infInut', body), { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

export function resNFe(r: {
  chNFe: string;
  issuerTaxId: string;
  xNome: string;
  IE: string;
  dhEmi: string;
  vNF: string;
  dhRecbto: string;
  nProt: string;
  cancelled: boolean;
}): string {
  const body = elementsOf(r, [
    'chNFe',
    taxIdField(r.issuerTaxId),
    'xNome',
    'IE',
    'dhEmi',
    ['tpNF', '1'],
    'vNF',
    'dhRecbto',
    'nProt',
    ['cSitNFe', r.cancelled ? '3' : '1'],
  ]);
  return element('resNFe', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}

export function resEvento(r: {
  cOrgao: string;
  authorTaxId: string;
  chNFe: string;
  dhEvento: string;
  tpEvento: string;
  nSeqEvento: number;
  xEvento: string;
  dhRecbto: string;
  nProt: string;
}): string {
  const body = elementsOf(r, [
    'cOrgao',
    taxIdField(r.authorTaxId),
    'chNFe',
    'dhEvento',
    'tpEvento',
    'nSeqEvento',
    'xEvento',
    'dhRecbto',
    'nProt',
  ]);
  return element('resEvento', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}

export function retDistDFeInt(
  h: { tpAmb: '1' | '2'; cStat: string; xMotivo: string; dhResp: string; ultNSU: string; maxNSU: string },
  documents: { nsu: string; schema: string; xml: string }[] = [],
): string {
  const lot = documents.length
    ? element(
        'loteDistDFeInt',
        documents
          .map((d) => element('docZip', gzipSync(Buffer.from(d.xml, 'utf8')).toString('base64'), { NSU: d.nsu, schema: d.schema }))
          .join(''),
      )
    : '';
  const body = elementsOf(h, ['tpAmb', VER_APLIC, 'cStat', 'xMotivo', 'dhResp', 'ultNSU', 'maxNSU']) + lot;
  return element('retDistDFeInt', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}
