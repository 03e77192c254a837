// How a stored NF-e is shown to others: nfeProc (the signed NF-e with its protocol) and resNFe (the summary the
// recipient gets from DistDFe before manifesting).
import { resNFe } from '../responses/event-responses.js';
import { type StoredNfe } from '../state/sefaz-state.js';

export function nfeProc(document: StoredNfe): string {
  return `<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${document.signedNfe.toString('utf8')}${document.protNFe}</nfeProc>`;
}

export function summaryOf(document: StoredNfe, dhRecbto: string): string {
  return resNFe({
    chNFe: document.key,
    issuerTaxId: document.issuerTaxId,
    xNome: document.issuerName,
    IE: document.issuerStateRegistration,
    dhEmi: document.issuedAtText,
    vNF: document.totalValue,
    dhRecbto,
    nProt: document.nProt,
    cancelled: document.cancelled,
  });
}
