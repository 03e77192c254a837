// The computed NFS-e Nacional DPS v1.01 (DPS/infDPS): the contract with the DPS builder in fiscal-xml.
// Every value final and formatted (TSDec15V2 → "100.00"); names follow tiposComplexos_v1.01.xsd.
// One DPS carries one service: the request's items (same service code) are combined here.
import type { DecimalText } from './nfe-document.js';

export interface DpsDocument {
  /** "DPS" + cMun(7) + tpInsc(1: 1 CPF, 2 CNPJ) + inscription(14) + serie(5) + nDPS(15) = 45 characters. */
  readonly id: string;
  readonly tpAmb: '1' | '2';
  readonly dhEmi: string; // AAAA-MM-DDThh:mm:ss-03:00
  readonly verAplic: string; // ≤ 20
  readonly serie: string; // 1–5 digits
  readonly nDPS: string; // 1–15 digits, no leading zero
  readonly dCompet: string; // AAAA-MM-DD, the issue date in the issuer's time zone
  readonly tpEmit: '1'; // issued by the provider
  readonly cLocEmi: string; // issuer's municipality
  readonly prest: DpsProvider;
  readonly toma?: DpsPerson;
  readonly serv: DpsService;
  readonly valores: DpsValues;
  readonly IBSCBS?: DpsIbsCbs;
}

export interface DpsAddress {
  /** endNac (Brazil) or endExt (abroad). */
  readonly endNac?: { readonly cMun: string; readonly CEP: string };
  readonly endExt?: { readonly cPais: string; readonly cEndPost: string; readonly xCidade: string; readonly xEstProvReg: string };
  readonly xLgr: string;
  readonly nro: string;
  readonly xCpl?: string;
  readonly xBairro: string;
}

export interface DpsProvider {
  readonly CNPJ?: string;
  readonly CPF?: string;
  readonly IM?: string;
  readonly fone?: string;
  readonly email?: string;
  readonly regTrib: {
    /** 1 not in Simples Nacional, 2 MEI, 3 ME/EPP in Simples Nacional. */
    readonly opSimpNac: '1' | '2' | '3';
    /** Only for opSimpNac 3: 1 = federal and municipal taxes by Simples Nacional. */
    readonly regApTribSN?: '1' | '2' | '3';
    readonly regEspTrib: '0';
  };
}

export interface DpsPerson {
  readonly CNPJ?: string;
  readonly CPF?: string;
  /** A taker abroad: the tax id its own country gives it (TSNIF, 1–40 characters). */
  readonly NIF?: string;
  readonly xNome: string;
  readonly end?: DpsAddress;
  readonly fone?: string;
  readonly email?: string;
}

export interface DpsService {
  readonly locPrest: { readonly cLocPrestacao: string };
  readonly cServ: {
    readonly cTribNac: string; // 6 digits: item, subitem, desdobro
    /** Item descriptions joined with "; " (≤ 2000). */
    readonly xDescServ: string;
  };
  /** The items' observations, then additional_info, joined with " | " (≤ 2000). */
  readonly infoCompl?: { readonly xInfComp: string };
}

export interface DpsValues {
  readonly vServPrest: { readonly vServ: DecimalText };
  /** Sum of the items' discounts, unconditional (absent when zero). */
  readonly vDescCondIncond?: { readonly vDescIncond: DecimalText };
  readonly trib: {
    readonly tribMun: {
      /** 1 = taxable operation. */
      readonly tribISSQN: '1';
      /** 1 = not withheld, 2 = withheld by the taker (tax_retained). */
      readonly tpRetISSQN: '1' | '2';
    };
    /**
     * Approximate tax burden (Lei 12.741/2012): pTotTrib, the percentages of the company's profile; indTotTrib 0 ("not
     * informed", Decreto 8.264/2014) only for a MEI; pTotTribSN (the Simples rate) is the layout's other choice.
     */
    readonly totTrib:
      | { readonly indTotTrib: '0' }
      | { readonly pTotTribSN: DecimalText }
      | { readonly pTotTrib: { readonly pTotTribFed: DecimalText; readonly pTotTribEst: DecimalText; readonly pTotTribMun: DecimalText } };
  };
}

export interface DpsIbsCbs {
  readonly finNFSe: '0';
  readonly indFinal: '0' | '1';
  readonly cIndOp: string; // 6 digits
  readonly indDest: '0'; // the recipient is the tomador
  readonly valores: { readonly trib: { readonly gIBSCBS: { readonly CST: string; readonly cClassTrib: string } } };
}
