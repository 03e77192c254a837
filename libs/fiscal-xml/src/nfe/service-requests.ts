// The NF-e 4.00 service requests other than events: inutilização (signed), protocol and status consultations,
// DistDFe (distribution to the interested party) and the authorization lot enviNFe.
import { element, textElement, XmlBuildError } from '../writer/canonical-xml.js';
import {
  NUMERIC_CNPJ_PATTERN,
  UF_CODE_PATTERN,
  padDigits,
  requireIntegerInRange,
  requirePattern,
  requireText,
} from '../writer/field-rules.js';
import { requireValidAccessKey } from './events/event-message.js';
import { type FederalTaxId, type FiscalEnvironment, NFE_NAMESPACE, taxIdElement, tpAmb, withoutXmlDeclaration } from './nfe-common.js';

export interface InutilizacaoInput {
  readonly environment: FiscalEnvironment;
  /** cUF of the issuer's state, 2 digits. */
  readonly ufCode: string;
  /** Year of the numbers being voided (4 digits, 2026) — the layout keeps the last two. */
  readonly year: number;
  readonly cnpj: string;
  readonly model: '55' | '65';
  readonly series: number;
  readonly firstNumber: number;
  readonly lastNumber: number;
  /** 15–255 characters. */
  readonly justification: string;
}

/** inutNFe 4.00, unsigned; the signature references `id` (ID + cUF + ano + CNPJ + mod + serie + nNFIni + nNFFin). */
export function buildInutilizacao(input: InutilizacaoInput): { id: string; xml: string } {
  const uf = requirePattern(input.ufCode, UF_CODE_PATTERN, 'ufCode', 'an IBGE state code');
  const year = padDigits(requireIntegerInRange(input.year, 'year', 2000, 2099) % 100, 2, 'year');
  // inutNFe 4.00 (PL_010b) still takes a numeric CNPJ only.
  const cnpj = requirePattern(input.cnpj, NUMERIC_CNPJ_PATTERN, 'cnpj', '14 digits');
  if (input.model !== '55' && input.model !== '65')
    throw new XmlBuildError(`model: expected 55 or 65, received ${JSON.stringify(input.model)}`);
  const series = requireIntegerInRange(input.series, 'series', 0, 999);
  const first = requireIntegerInRange(input.firstNumber, 'firstNumber', 1, 999_999_999);
  const last = requireIntegerInRange(input.lastNumber, 'lastNumber', 1, 999_999_999);
  if (last < first) throw new XmlBuildError(`lastNumber: must be ≥ firstNumber (${first}), received ${last}`);
  const id = `ID${uf}${year}${cnpj}${input.model}${padDigits(series, 3, 'series')}${padDigits(first, 9, 'firstNumber')}${padDigits(last, 9, 'lastNumber')}`;
  const info =
    textElement('tpAmb', tpAmb(input.environment)) +
    textElement('xServ', 'INUTILIZAR') +
    textElement('cUF', uf) +
    textElement('ano', year) +
    textElement('CNPJ', cnpj) +
    textElement('mod', input.model) +
    textElement('serie', series) +
    textElement('nNFIni', first) +
    textElement('nNFFin', last) +
    textElement('xJust', requireText(input.justification, 'justification', 15, 255));
  const xml = element('inutNFe', element('infInut', info, { Id: id }), { xmlns: NFE_NAMESPACE, versao: '4.00' });
  return { id, xml };
}

/** consSitNFe 4.00: the authorizer's view of one NF-e (protocol, events). */
export function buildConsSitNFe(input: { environment: FiscalEnvironment; accessKey: string }): string {
  const key = requireValidAccessKey(input.accessKey, 'accessKey');
  const body = textElement('tpAmb', tpAmb(input.environment)) + textElement('xServ', 'CONSULTAR') + textElement('chNFe', key);
  return element('consSitNFe', body, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

/** consStatServ 4.00: is the state's authorizer up. */
export function buildConsStatServ(input: { environment: FiscalEnvironment; ufCode: string }): string {
  const uf = requirePattern(input.ufCode, UF_CODE_PATTERN, 'ufCode', 'an IBGE state code');
  const body = textElement('tpAmb', tpAmb(input.environment)) + textElement('cUF', uf) + textElement('xServ', 'STATUS');
  return element('consStatServ', body, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}

/** What to fetch from DistDFe: the feed after the last NSU seen, one NSU, or one access key. */
export type DistDFeQuery =
  | { readonly kind: 'after'; readonly lastNsu: string }
  | { readonly kind: 'nsu'; readonly nsu: string }
  | { readonly kind: 'accessKey'; readonly accessKey: string };

export interface DistDFeInput {
  readonly environment: FiscalEnvironment;
  /** cUF of the interested party's state (cUFAutor). */
  readonly authorUfCode?: string;
  readonly interested: FederalTaxId;
  readonly query: DistDFeQuery;
}

function nsu(value: string, field: string): string {
  return padDigits(value, 15, field);
}

/** distDFeInt 1.01 for NFeDistribuicaoDFe (Ambiente Nacional). */
export function buildDistDFeInt(input: DistDFeInput): string {
  let query: string;
  switch (input.query.kind) {
    case 'after':
      query = element('distNSU', textElement('ultNSU', nsu(input.query.lastNsu, 'query.lastNsu')));
      break;
    case 'nsu':
      query = element('consNSU', textElement('NSU', nsu(input.query.nsu, 'query.nsu')));
      break;
    case 'accessKey':
      query = element('consChNFe', textElement('chNFe', requireValidAccessKey(input.query.accessKey, 'query.accessKey')));
      break;
    default:
      throw new XmlBuildError('query: expected kind "after", "nsu" or "accessKey"');
  }
  const uf =
    input.authorUfCode === undefined
      ? ''
      : textElement('cUFAutor', requirePattern(input.authorUfCode, UF_CODE_PATTERN, 'authorUfCode', 'an IBGE state code'));
  const body = textElement('tpAmb', tpAmb(input.environment)) + uf + taxIdElement(input.interested, 'interested') + query;
  return element('distDFeInt', body, { xmlns: NFE_NAMESPACE, versao: '1.01' });
}

/**
 * enviNFe 4.00 with one signed NF-e and indSinc=1 (synchronous answer). The signed NFe is embedded as is: its
 * bytes are the legal document and any re-serialization would break the signature.
 */
export function buildEnviNFe(input: { lotId: string; signedNfe: string }): string {
  requirePattern(input.lotId, /^[0-9]{1,15}$/, 'lotId', '1–15 digits');
  const nfe = withoutXmlDeclaration(input.signedNfe);
  if (!nfe.startsWith('<NFe ') || !nfe.includes('<Signature')) throw new XmlBuildError('signedNfe: expected a signed <NFe> document');
  const body = textElement('idLote', input.lotId) + textElement('indSinc', '1') + nfe;
  return element('enviNFe', body, { xmlns: NFE_NAMESPACE, versao: '4.00' });
}
