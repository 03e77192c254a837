// Values shared by every NF-e family message.
import { XmlBuildError, textElement } from '../writer/canonical-xml.js';
import { CNPJ_PATTERN, CPF_PATTERN, requirePattern } from '../writer/field-rules.js';

export const NFE_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe';

/** Homologation = tpAmb 2, production = tpAmb 1. Comes from the credential, never from a request field. */
export type FiscalEnvironment = 'production' | 'homologation';

export function tpAmb(environment: FiscalEnvironment): string {
  if (environment === 'production') return '1';
  if (environment === 'homologation') return '2';
  throw new XmlBuildError(`environment: expected "production" or "homologation", received ${JSON.stringify(environment)}`);
}

/** A federal tax id: CNPJ (14, the first 12 may be letters from 2026-07) or CPF (11 digits). */
export type FederalTaxId = { readonly cnpj: string } | { readonly cpf: string };

/** `<CNPJ>` or `<CPF>`, checked for shape. */
export function taxIdElement(taxId: FederalTaxId, field: string): string {
  if ('cnpj' in taxId)
    return textElement('CNPJ', requirePattern(taxId.cnpj, CNPJ_PATTERN, `${field}.cnpj`, '14 characters, [0-9A-Z]{12}[0-9]{2}'));
  if ('cpf' in taxId) return textElement('CPF', requirePattern(taxId.cpf, CPF_PATTERN, `${field}.cpf`, '11 digits'));
  throw new XmlBuildError(`${field}: expected { cnpj } or { cpf }`);
}

/** Removes an XML declaration a signer may have prepended, so a signed document can be embedded as is. */
export function withoutXmlDeclaration(xml: string): string {
  return xml.startsWith('<?xml') ? xml.slice(xml.indexOf('?>') + 2).replace(/^\s+/, '') : xml;
}
