// Answers of NFeRecepcaoEvento4, NFeInutilizacao4 and NFeDistribuicaoDFe, in the element order of the official
// schemas (retEnvEvento_v1.00, retInutNFe_v4.00, retDistDFeInt_v1.01, resNFe_v1.01, resEvento_v1.01).
import { gzipSync } from 'node:zlib';
import { element, NFE_NAMESPACE, textElement } from '@talao/fiscal-xml';
import { SIM_VERSION } from './nfe-responses.js';

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
  const body =
    textElement('tpAmb', info.tpAmb) +
    textElement('verAplic', SIM_VERSION) +
    textElement('cOrgao', info.cOrgao) +
    textElement('cStat', info.cStat) +
    textElement('xMotivo', info.xMotivo) +
    (info.chNFe ? textElement('chNFe', info.chNFe) : '') +
    (info.tpEvento ? textElement('tpEvento', info.tpEvento) : '') +
    (info.xEvento ? textElement('xEvento', info.xEvento) : '') +
    (info.nSeqEvento !== undefined ? textElement('nSeqEvento', String(info.nSeqEvento)) : '') +
    textElement('dhRegEvento', info.dhRegEvento) +
    (info.nProt ? textElement('nProt', info.nProt) : '');
  return element('retEvento', element('infEvento', body), { versao: '1.00' });
}

export function retEnvEvento(h: { idLote: string; tpAmb: '1' | '2'; cOrgao: string; cStat: string; xMotivo: string }, events: string[] = []): string {
  const body =
    textElement('idLote', h.idLote) +
    textElement('tpAmb', h.tpAmb) +
    textElement('verAplic', SIM_VERSION) +
    textElement('cOrgao', h.cOrgao) +
    textElement('cStat', h.cStat) +
    textElement('xMotivo', h.xMotivo) +
    events.join('');
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
  const body =
    textElement('tpAmb', info.tpAmb) +
    textElement('verAplic', SIM_VERSION) +
    textElement('cStat', info.cStat) +
    textElement('xMotivo', info.xMotivo) +
    textElement('cUF', info.cUF) +
    (r
      ? textElement('ano', r.ano) + textElement('CNPJ', r.CNPJ) + textElement('mod', r.mod) + textElement('serie', String(r.serie)) +
        textElement('nNFIni', String(r.nNFIni)) + textElement('nNFFin', String(r.nNFFin))
      : '') +
    textElement('dhRecbto', info.dhRecbto) +
    (info.nProt ? textElement('nProt', info.nProt) : '');
  return element('retInutNFe', element('infInut', body), { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

export function resNFe(r: {
  chNFe: string; issuerTaxId: string; xNome: string; IE: string; dhEmi: string; vNF: string; dhRecbto: string; nProt: string; cancelled: boolean;
}): string {
  const taxId = r.issuerTaxId.length === 11 ? textElement('CPF', r.issuerTaxId) : textElement('CNPJ', r.issuerTaxId);
  const body =
    textElement('chNFe', r.chNFe) + taxId + textElement('xNome', r.xNome) + textElement('IE', r.IE) + textElement('dhEmi', r.dhEmi) +
    textElement('tpNF', '1') + textElement('vNF', r.vNF) + textElement('dhRecbto', r.dhRecbto) + textElement('nProt', r.nProt) +
    textElement('cSitNFe', r.cancelled ? '3' : '1');
  return element('resNFe', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}

export function resEvento(r: {
  cOrgao: string; authorTaxId: string; chNFe: string; dhEvento: string; tpEvento: string; nSeqEvento: number; xEvento: string; dhRecbto: string; nProt: string;
}): string {
  const taxId = r.authorTaxId.length === 11 ? textElement('CPF', r.authorTaxId) : textElement('CNPJ', r.authorTaxId);
  const body =
    textElement('cOrgao', r.cOrgao) + taxId + textElement('chNFe', r.chNFe) + textElement('dhEvento', r.dhEvento) + textElement('tpEvento', r.tpEvento) +
    textElement('nSeqEvento', String(r.nSeqEvento)) + textElement('xEvento', r.xEvento) + textElement('dhRecbto', r.dhRecbto) + textElement('nProt', r.nProt);
  return element('resEvento', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}

export function retDistDFeInt(
  h: { tpAmb: '1' | '2'; cStat: string; xMotivo: string; dhResp: string; ultNSU: string; maxNSU: string },
  documents: { nsu: string; schema: string; xml: string }[] = [],
): string {
  const lot = documents.length
    ? element('loteDistDFeInt', documents.map((d) => element('docZip', gzipSync(Buffer.from(d.xml, 'utf8')).toString('base64'), { NSU: d.nsu, schema: d.schema })).join(''))
    : '';
  const body =
    textElement('tpAmb', h.tpAmb) + textElement('verAplic', SIM_VERSION) + textElement('cStat', h.cStat) + textElement('xMotivo', h.xMotivo) +
    textElement('dhResp', h.dhResp) + textElement('ultNSU', h.ultNSU) + textElement('maxNSU', h.maxNSU) + lot;
  return element('retDistDFeInt', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}
