// The computed NF-e 4.00: the contract between fiscal-model (which decides and computes every value) and the XML
// builder in fiscal-xml (which only serializes, in this order, with these tag names). Every value is final:
// decimal strings already carry the places the layout's type needs (TDec_1302 → "10.00", rates → 2–4 places,
// qCom → 4 places, vUnCom → 10 places), codes are zero-padded, optional groups are absent rather than empty.
// Names follow leiauteNFe_v4.00.xsd (PL_010b v1.30); the comment after each field names its XSD type or rule.

/** A decimal already formatted for the XML (no exponent, the layout's places). */
export type DecimalText = string;

export interface NfeDocument {
  /** 44-character access key; infNFe/@Id is "NFe" + accessKey. */
  readonly accessKey: string;
  readonly ide: NfeIde;
  readonly emit: NfeEmit;
  readonly dest: NfeDest;
  /** det[1..990], nItem = index + 1. */
  readonly det: readonly NfeItem[];
  readonly total: NfeTotal;
  readonly transp: NfeTransp;
  readonly pag: NfePag;
  readonly infAdic?: NfeInfAdic;
  readonly infRespTec: NfeInfRespTec;
}

export interface NfeIde {
  readonly cUF: string; // TCodUfIBGE, 2 digits
  readonly cNF: string; // 8 digits, derived from the invoice id, never equal to nNF
  readonly natOp: string; // ≤ 60
  readonly mod: '55';
  readonly serie: string; // 0–999 without leading zeros
  readonly nNF: string; // 1–999999999 without leading zeros
  readonly dhEmi: string; // TDateTimeUTC: AAAA-MM-DDThh:mm:ss-03:00 (issuer state's offset)
  readonly tpNF: '0' | '1'; // 0 entrada, 1 saída
  readonly idDest: '1' | '2' | '3'; // 1 internal, 2 interstate, 3 abroad
  readonly cMunFG: string; // 7 digits, the issuer's municipality
  readonly tpImp: '1'; // DANFE portrait
  readonly tpEmis: '1' | '6' | '7'; // 1 normal, 6 SVC-AN, 7 SVC-RS
  readonly cDV: string; // access key check digit
  readonly tpAmb: '1' | '2'; // 1 production, 2 homologation
  readonly finNFe: '1' | '2' | '3' | '4'; // normal, complementary, adjustment, return
  readonly indFinal: '0' | '1';
  readonly indPres: '0' | '1' | '2' | '3' | '4' | '5' | '9';
  /** Present when indPres is 2, 3, 4 or 9 (required there by NT 2020.006): 0 = own channel. */
  readonly indIntermed?: '0';
  readonly procEmi: '0'; // issued by the taxpayer's own application
  readonly verProc: string; // ≤ 20
  /** Contingency (tpEmis 6/7): dhCont and xJust (15–256 chars), both or neither. */
  readonly contingency?: { readonly dhCont: string; readonly xJust: string };
  /** NFref/refNFe, in order. */
  readonly refNFe?: readonly string[];
}

export interface NfeAddress {
  readonly xLgr: string;
  readonly nro: string;
  readonly xCpl?: string;
  readonly xBairro: string;
  readonly cMun: string; // 7 digits; 9999999 abroad
  readonly xMun: string; // "EXTERIOR" abroad
  readonly UF: string; // "EX" abroad
  readonly CEP?: string; // 8 digits
  readonly cPais?: string; // BACEN code, 1058 = Brasil
  readonly xPais?: string;
  readonly fone?: string; // 6–14 digits
}

export interface NfeEmit {
  /** Exactly one of CNPJ / CPF. */
  readonly CNPJ?: string;
  readonly CPF?: string;
  readonly xNome: string;
  readonly xFant?: string;
  readonly enderEmit: NfeAddress & { readonly CEP: string };
  readonly IE: string;
  readonly IM?: string;
  /** Only with IM. */
  readonly CNAE?: string;
  readonly CRT: '1' | '2' | '3' | '4';
}

export interface NfeDest {
  /** Exactly one of CNPJ / CPF / idEstrangeiro. */
  readonly CNPJ?: string;
  readonly CPF?: string;
  readonly idEstrangeiro?: string; // may be "" (foreign buyer without an id)
  /** In homologation: "NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL". */
  readonly xNome: string;
  readonly enderDest: NfeAddress;
  readonly indIEDest: '1' | '2' | '9';
  readonly IE?: string;
  readonly email?: string;
}

export interface NfeProd {
  readonly cProd: string;
  readonly cEAN: string; // GTIN or "SEM GTIN"
  readonly xProd: string;
  readonly NCM: string; // 8 digits
  readonly CEST?: string; // 7 digits
  /** Only beside CEST: "N" (not relevant scale) when CNPJFab is given. */
  readonly indEscala?: 'S' | 'N';
  /** Manufacturer CNPJ; only beside CEST (the layout's sequence CEST, indEscala, CNPJFab). */
  readonly CNPJFab?: string;
  readonly CFOP: string; // 4 digits
  readonly uCom: string;
  readonly qCom: DecimalText; // TDec_1104v, 4 places
  readonly vUnCom: DecimalText; // TDec_1110v, 10 places
  readonly vProd: DecimalText; // TDec_1302: gross = round2(qCom × vUnCom) or the given amount
  readonly cEANTrib: string;
  readonly uTrib: string;
  readonly qTrib: DecimalText;
  readonly vUnTrib: DecimalText;
  /** TDec_1302Opc (never zero): absent when zero. */
  readonly vFrete?: DecimalText;
  readonly vSeg?: DecimalText;
  readonly vDesc?: DecimalText;
  readonly vOutro?: DecimalText;
  readonly indTot: '1';
}

export interface NfeItem {
  readonly nItem: number;
  readonly prod: NfeProd;
  readonly imposto: NfeImposto;
  /** Item total: vProd − vDesc + vFrete + vSeg + vOutro (informational, not an XML tag of det). */
  readonly itemTotal: DecimalText;
}

export interface NfeImposto {
  readonly ICMS: import('./nfe-icms.js').NfeIcms;
  readonly IPI?: import('./nfe-federal-taxes.js').NfeIpi;
  readonly PIS: import('./nfe-federal-taxes.js').NfePis;
  readonly COFINS: import('./nfe-federal-taxes.js').NfeCofins;
  /** ICMS owed to the destination state (DIFAL, EC 87/2015): interstate sale to a non-contributor final consumer. */
  readonly ICMSUFDest?: NfeIcmsUfDest;
  /** Absent when the item has no ibs_cbs: the item then emits nothing of the reform. */
  readonly IBSCBS?: import('./nfe-ibs-cbs.js').NfeIbsCbs;
}

/** imposto/ICMSUFDest, in XSD order. */
export interface NfeIcmsUfDest {
  readonly vBCUFDest: DecimalText;
  /** With FCP of the destination only. */
  readonly vBCFCPUFDest?: DecimalText;
  readonly pFCPUFDest?: DecimalText;
  readonly pICMSUFDest: DecimalText;
  readonly pICMSInter: '4.00' | '7.00' | '12.00';
  /** 100.00: since 2019 the whole difference belongs to the destination state. */
  readonly pICMSInterPart: DecimalText;
  readonly vFCPUFDest?: DecimalText;
  readonly vICMSUFDest: DecimalText;
  readonly vICMSUFRemet: DecimalText;
}

export interface NfeIcmsTot {
  readonly vBC: DecimalText;
  readonly vICMS: DecimalText;
  readonly vICMSDeson: DecimalText;
  /** DIFAL totals: present only when some item carries ICMSUFDest. */
  readonly vFCPUFDest?: DecimalText;
  readonly vICMSUFDest?: DecimalText;
  readonly vICMSUFRemet?: DecimalText;
  readonly vFCP: DecimalText;
  readonly vBCST: DecimalText;
  readonly vST: DecimalText;
  readonly vFCPST: DecimalText;
  readonly vFCPSTRet: DecimalText;
  /** Monophasic totals (TDec_1302, 2 places even for quantities): present only when some item is monophasic. */
  readonly qBCMono?: DecimalText;
  readonly vICMSMono?: DecimalText;
  readonly qBCMonoReten?: DecimalText;
  readonly vICMSMonoReten?: DecimalText;
  readonly qBCMonoRet?: DecimalText;
  readonly vICMSMonoRet?: DecimalText;
  readonly vProd: DecimalText;
  readonly vFrete: DecimalText;
  readonly vSeg: DecimalText;
  readonly vDesc: DecimalText;
  readonly vII: DecimalText;
  readonly vIPI: DecimalText;
  readonly vIPIDevol: DecimalText;
  readonly vPIS: DecimalText;
  readonly vCOFINS: DecimalText;
  readonly vOutro: DecimalText;
  /** vProd − vDesc − vICMSDeson(deducted) + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol. */
  readonly vNF: DecimalText;
}

export interface NfeTotal {
  readonly ICMSTot: NfeIcmsTot;
  /** Present when at least one item carries IBSCBS. */
  readonly IBSCBSTot?: import('./nfe-ibs-cbs.js').NfeIbsCbsTot;
}

export interface NfeTransp {
  /** 9 = no freight (the request has no transport data yet). */
  readonly modFrete: '9';
}

export interface NfeDetPag {
  readonly indPag?: '0' | '1';
  /** tPag: 01 cash … 90 no payment, 99 other. */
  readonly tPag: string;
  /** Required by the layout rules when tPag = 99. */
  readonly xPag?: string;
  readonly vPag: DecimalText;
  /** Cards: tpIntegra 2 (not integrated) is the only value the request can express. */
  readonly card?: { readonly tpIntegra: '2' };
}

export interface NfePag {
  readonly detPag: readonly NfeDetPag[];
  readonly vTroco?: DecimalText;
}

export interface NfeInfAdic {
  readonly infCpl?: string;
}

export interface NfeInfRespTec {
  readonly CNPJ: string;
  readonly xContato: string;
  readonly email: string;
  readonly fone: string;
  /** Only when the state has issued a CSRT: idCSRT and hashCSRT = base64(SHA-1(CSRT + access key)). */
  readonly idCSRT?: string;
  readonly hashCSRT?: string;
}
