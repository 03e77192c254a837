// imposto/IPI, PIS, COFINS as discriminated unions on the XML group name.
import type { Dec } from './nfe-document.js';

export type NfeIpi =
  | { readonly group: 'IPITrib'; readonly cEnq: string; readonly CST: '00' | '49' | '50' | '99'; readonly vBC: Dec; readonly pIPI: Dec; readonly vIPI: Dec }
  | { readonly group: 'IPITrib'; readonly cEnq: string; readonly CST: '00' | '49' | '50' | '99'; readonly qUnid: Dec; readonly vUnid: Dec; readonly vIPI: Dec }
  | { readonly group: 'IPINT'; readonly cEnq: string; readonly CST: '01' | '02' | '03' | '04' | '05' | '51' | '52' | '53' | '54' | '55' };

/** PIS and COFINS share their shape; `p` is pPIS / pCOFINS and `v` is vPIS / vCOFINS in the XML. */
export type NfeSocialContribution =
  | { readonly group: 'Aliq'; readonly CST: '01' | '02'; readonly vBC: Dec; readonly p: Dec; readonly v: Dec }
  | { readonly group: 'Qtde'; readonly CST: '03'; readonly qBCProd: Dec; readonly vAliqProd: Dec; readonly v: Dec }
  | { readonly group: 'NT'; readonly CST: '04' | '05' | '06' | '07' | '08' | '09' }
  | { readonly group: 'Outr'; readonly CST: string; readonly vBC: Dec; readonly p: Dec; readonly v: Dec }
  | { readonly group: 'Outr'; readonly CST: string; readonly qBCProd: Dec; readonly vAliqProd: Dec; readonly v: Dec };

/** Serialized as PISAliq / PISQtde / PISNT / PISOutr. */
export type NfePis = NfeSocialContribution;
/** Serialized as COFINSAliq / COFINSQtde / COFINSNT / COFINSOutr. */
export type NfeCofins = NfeSocialContribution;
