// The NFS-e (NFSe_v1.01) and event (evento_v1.01) documents the simulated Sefin Nacional generates, in schema order.
import { findMunicipality } from '@talao/fiscal-model';
import { element, textElement } from '@talao/fiscal-xml';
import { type NationalSigningKey, signNationalElement } from './national-signer.js';

export const NFSE_NAMESPACE = 'http://www.sped.fazenda.gov.br/nfse';
export const SEFIN_VERSION = 'SefinNac-SIM-1.0';

function municipalityName(code: string): string {
  return findMunicipality(code)?.name ?? `MUNICIPIO ${code}`;
}

export interface NfseFacts {
  key: string;
  number: number;
  dfeNumber: number;
  processedAt: string;
  municipality: string;
  servicePlace: string;
  serviceCode: string;
  serviceDescription: string;
  providerTaxId: string;
  providerName: string;
  netValue: string;
  /** The signed DPS exactly as received. */
  signedDps: string;
}

export function buildSignedNfse(facts: NfseFacts, key: NationalSigningKey): string {
  const place = findMunicipality(facts.municipality);
  const taxId = facts.providerTaxId.length === 11 ? textElement('CPF', facts.providerTaxId) : textElement('CNPJ', facts.providerTaxId);
  // The register (CNC) would give the provider's address; the simulator has none, so it states that.
  const address =
    textElement('xLgr', 'ENDERECO DO CADASTRO NACIONAL (SIMULADOR)') +
    textElement('nro', 'S/N') +
    textElement('xBairro', 'CENTRO') +
    textElement('cMun', facts.municipality) +
    textElement('UF', place?.state ?? 'SP') +
    textElement('CEP', '01001000');
  const info =
    textElement('xLocEmi', municipalityName(facts.municipality)) +
    textElement('xLocPrestacao', municipalityName(facts.servicePlace)) +
    textElement('nNFSe', String(facts.number)) +
    textElement('xTribNac', `${facts.serviceCode} - ${facts.serviceDescription}`.slice(0, 600)) +
    textElement('verAplic', SEFIN_VERSION) +
    textElement('ambGer', '2') +
    textElement('tpEmis', '1') +
    textElement('cStat', '100') +
    textElement('dhProc', facts.processedAt) +
    textElement('nDFSe', String(facts.dfeNumber)) +
    element('emit', taxId + textElement('xNome', facts.providerName) + element('enderNac', address)) +
    element('valores', textElement('vLiq', facts.netValue)) +
    facts.signedDps;
  const xml = element('NFSe', element('infNFSe', info, { Id: `NFS${facts.key}` }), { xmlns: NFSE_NAMESPACE, versao: '1.01' });
  return signNationalElement(xml, 'infNFSe', key);
}

export function buildSignedEvent(
  facts: { key: string; eventType: string; sequence: number; processedAt: string; dfeNumber: number; signedRequest: string },
  key: NationalSigningKey,
): string {
  const info =
    textElement('verAplic', SEFIN_VERSION) +
    textElement('ambGer', '2') +
    textElement('nSeqEvento', String(facts.sequence)) +
    textElement('dhProc', facts.processedAt) +
    textElement('nDFSe', String(facts.dfeNumber)) +
    facts.signedRequest;
  const id = `EVT${facts.key}${facts.eventType}${String(facts.sequence).padStart(3, '0')}`;
  const xml = element('evento', element('infEvento', info, { Id: id }), { xmlns: NFSE_NAMESPACE, versao: '1.01' });
  return signNationalElement(xml, 'infEvento', key);
}
