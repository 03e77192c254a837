// imposto/IPI, PIS, COFINS as discriminated unions on the XML group name.
import type { DecimalText } from './nfe-document.js';

export type NfeIpi =
  | {
      readonly group: 'IPITrib';
      readonly cEnq: string;
      readonly CST: '00' | '49' | '50' | '99';
      readonly vBC: DecimalText;
      readonly pIPI: DecimalText;
      readonly vIPI: DecimalText;
    }
  | {
      readonly group: 'IPITrib';
      readonly cEnq: string;
      readonly CST: '00' | '49' | '50' | '99';
      readonly qUnid: DecimalText;
      readonly vUnid: DecimalText;
      readonly vIPI: DecimalText;
    }
  | { readonly group: 'IPINT'; readonly cEnq: string; readonly CST: '01' | '02' | '03' | '04' | '05' | '51' | '52' | '53' | '54' | '55' };

/** PIS and COFINS share their shape; `p` is pPIS / pCOFINS and `v` is vPIS / vCOFINS in the XML. */
export type NfeSocialContribution =
  | { readonly group: 'Aliq'; readonly CST: '01' | '02'; readonly vBC: DecimalText; readonly p: DecimalText; readonly v: DecimalText }
  | { readonly group: 'Qtde'; readonly CST: '03'; readonly qBCProd: DecimalText; readonly vAliqProd: DecimalText; readonly v: DecimalText }
  | { readonly group: 'NT'; readonly CST: '04' | '05' | '06' | '07' | '08' | '09' }
  | { readonly group: 'Outr'; readonly CST: string; readonly vBC: DecimalText; readonly p: DecimalText; readonly v: DecimalText }
  | {
      readonly group: 'Outr';
      readonly CST: string;
      readonly qBCProd: DecimalText;
      readonly vAliqProd: DecimalText;
      readonly v: DecimalText;
    };

/** Serialized as PISAliq / PISQtde / PISNT / PISOutr. */
export type NfePis = NfeSocialContribution;
/** Serialized as COFINSAliq / COFINSQtde / COFINSNT / COFINSOutr. */
export type NfeCofins = NfeSocialContribution;
