// imposto/ICMS: one group per item, a discriminated union on `group` (the XML element name under <ICMS>).
// Fields are in XSD order; optional sub-sequences are optional objects so "all or nothing" holds by construction.
import type { DecimalText } from './nfe-document.js';

export type Orig = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8';
export type ModBC = '0' | '1' | '2' | '3';
export type ModBCST = '0' | '1' | '2' | '3' | '4' | '5' | '6';

/** vBCFCP? pFCP vFCP (vBCFCP absent in ICMS00, where the FCP base is the ICMS base). */
export interface Fcp {
  readonly vBCFCP?: DecimalText;
  readonly pFCP: DecimalText;
  readonly vFCP: DecimalText;
}
export interface FcpSt {
  readonly vBCFCPST: DecimalText;
  readonly pFCPST: DecimalText;
  readonly vFCPST: DecimalText;
}
/** The ST block shared by ICMS10, 30, 70, 90, Part, SN201, SN202, SN900. */
export interface IcmsSt {
  readonly modBCST: ModBCST;
  readonly pMVAST?: DecimalText;
  readonly pRedBCST?: DecimalText;
  readonly vBCST: DecimalText;
  readonly pICMSST: DecimalText;
  readonly vICMSST: DecimalText;
  readonly fcpSt?: FcpSt;
}
export interface Deson {
  readonly vICMSDeson: DecimalText;
  readonly motDesICMS: string;
  /** 1 = the relief is deducted from the item value (and from vNF). */
  readonly indDeduzDeson?: '0' | '1';
}
export interface DesonSt {
  readonly vICMSSTDeson: DecimalText;
  readonly motDesICMSST: string;
}
/** ST retained earlier (ICMS60, ICMSST, ICMSSN500). */
export interface StRetained {
  readonly vBCSTRet: DecimalText;
  readonly pST?: DecimalText;
  readonly vICMSSubstituto?: DecimalText;
  readonly vICMSSTRet: DecimalText;
}
export interface FcpStRetained {
  readonly vBCFCPSTRet: DecimalText;
  readonly pFCPSTRet: DecimalText;
  readonly vFCPSTRet: DecimalText;
}
export interface Effective {
  readonly pRedBCEfet: DecimalText;
  readonly vBCEfet: DecimalText;
  readonly pICMSEfet: DecimalText;
  readonly vICMSEfet: DecimalText;
}
/** modBC vBC pRedBC? pICMS vICMS: own-operation ICMS of ICMS90 / ICMSSN900. */
export interface OwnIcms {
  readonly modBC: ModBC;
  readonly vBC: DecimalText;
  readonly pRedBC?: DecimalText;
  readonly pICMS: DecimalText;
  readonly vICMS: DecimalText;
}

export interface Icms00 {
  readonly group: 'ICMS00';
  readonly orig: Orig;
  readonly CST: '00';
  readonly modBC: ModBC;
  readonly vBC: DecimalText;
  readonly pICMS: DecimalText;
  readonly vICMS: DecimalText;
  readonly fcp?: Fcp;
}
export interface Icms02 {
  readonly group: 'ICMS02';
  readonly orig: Orig;
  readonly CST: '02';
  readonly qBCMono: DecimalText;
  readonly adRemICMS: DecimalText;
  readonly vICMSMono: DecimalText;
}
export interface Icms10 {
  readonly group: 'ICMS10';
  readonly orig: Orig;
  readonly CST: '10';
  readonly modBC: ModBC;
  readonly vBC: DecimalText;
  readonly pICMS: DecimalText;
  readonly vICMS: DecimalText;
  readonly fcp?: Fcp;
  readonly st: IcmsSt;
  readonly desonSt?: DesonSt;
}
export interface Icms15 {
  readonly group: 'ICMS15';
  readonly orig: Orig;
  readonly CST: '15';
  readonly qBCMono: DecimalText;
  readonly adRemICMS: DecimalText;
  readonly vICMSMono: DecimalText;
  readonly qBCMonoReten: DecimalText;
  readonly adRemICMSReten: DecimalText;
  readonly vICMSMonoReten: DecimalText;
  readonly reduction?: { readonly pRedAdRem: DecimalText; readonly motRedAdRem: '1' | '9' };
}
/** ICMS on a reduced base (CST 20 and 70): own operation with pRedBC. */
interface ReducedBaseIcms {
  readonly modBC: ModBC;
  readonly pRedBC: DecimalText;
  readonly vBC: DecimalText;
  readonly pICMS: DecimalText;
  readonly vICMS: DecimalText;
  readonly fcp?: Fcp;
}
export interface Icms20 extends ReducedBaseIcms {
  readonly group: 'ICMS20';
  readonly orig: Orig;
  readonly CST: '20';
  readonly deson?: Deson;
}
export interface Icms30 {
  readonly group: 'ICMS30';
  readonly orig: Orig;
  readonly CST: '30';
  readonly st: IcmsSt;
  readonly deson?: Deson;
}
export interface Icms40 {
  readonly group: 'ICMS40';
  readonly orig: Orig;
  readonly CST: '40' | '41' | '50';
  readonly deson?: Deson;
}
export interface Icms51 {
  readonly group: 'ICMS51';
  readonly orig: Orig;
  readonly CST: '51';
  readonly modBC: ModBC;
  readonly pRedBC?: DecimalText;
  readonly vBC: DecimalText;
  readonly pICMS: DecimalText;
  /** ICMS of the operation, the deferred part (pDif %), and what remains due: vICMS = vICMSOp − vICMSDif. */
  readonly vICMSOp: DecimalText;
  readonly pDif: DecimalText;
  readonly vICMSDif: DecimalText;
  readonly vICMS: DecimalText;
  readonly fcp?: Fcp;
}
export interface Icms53 {
  readonly group: 'ICMS53';
  readonly orig: Orig;
  readonly CST: '53';
  readonly qBCMono: DecimalText;
  readonly adRemICMS: DecimalText;
  readonly vICMSMonoOp: DecimalText;
  readonly pDif: DecimalText;
  readonly vICMSMonoDif: DecimalText;
  readonly vICMSMono: DecimalText;
}
export interface Icms60 {
  readonly group: 'ICMS60';
  readonly orig: Orig;
  readonly CST: '60';
  readonly retained?: StRetained & { readonly pST: DecimalText };
  readonly fcpStRetained?: FcpStRetained;
  readonly effective?: Effective;
}
export interface Icms61 {
  readonly group: 'ICMS61';
  readonly orig: Orig;
  readonly CST: '61';
  readonly qBCMonoRet: DecimalText;
  readonly adRemICMSRet: DecimalText;
  readonly vICMSMonoRet: DecimalText;
}
export interface Icms70 extends ReducedBaseIcms {
  readonly group: 'ICMS70';
  readonly orig: Orig;
  readonly CST: '70';
  readonly st: IcmsSt;
  readonly deson?: Deson;
  readonly desonSt?: DesonSt;
}
export interface Icms90 {
  readonly group: 'ICMS90';
  readonly orig: Orig;
  readonly CST: '90';
  readonly own?: OwnIcms & { readonly fcp?: Fcp };
  readonly st?: IcmsSt;
  readonly deson?: Deson;
  readonly desonSt?: DesonSt;
}
/** Partition between origin and destination states (CST 10 / 90). No FCP of the own operation in this group. */
export interface IcmsPart {
  readonly group: 'ICMSPart';
  readonly orig: Orig;
  readonly CST: '10' | '90';
  readonly modBC: ModBC;
  readonly vBC: DecimalText;
  readonly pRedBC?: DecimalText;
  readonly pICMS: DecimalText;
  readonly vICMS: DecimalText;
  readonly st: IcmsSt;
  readonly pBCOp: DecimalText;
  readonly UFST: string;
}
/** ST transfer (repasse) between states, CST 41 / 60. */
export interface IcmsStRepasse {
  readonly group: 'ICMSST';
  readonly orig: Orig;
  readonly CST: '41' | '60';
  readonly retained: StRetained;
  readonly fcpStRetained?: FcpStRetained;
  readonly vBCSTDest: DecimalText;
  readonly vICMSSTDest: DecimalText;
  readonly effective?: Effective;
}
export interface IcmsSn101 {
  readonly group: 'ICMSSN101';
  readonly orig: Orig;
  readonly CSOSN: '101';
  readonly pCredSN: DecimalText;
  readonly vCredICMSSN: DecimalText;
}
export interface IcmsSn102 {
  readonly group: 'ICMSSN102';
  readonly orig: Orig;
  readonly CSOSN: '102' | '103' | '300' | '400';
}
export interface IcmsSn201 {
  readonly group: 'ICMSSN201';
  readonly orig: Orig;
  readonly CSOSN: '201';
  readonly st: IcmsSt;
  readonly pCredSN: DecimalText;
  readonly vCredICMSSN: DecimalText;
}
export interface IcmsSn202 {
  readonly group: 'ICMSSN202';
  readonly orig: Orig;
  readonly CSOSN: '202' | '203';
  readonly st: IcmsSt;
}
export interface IcmsSn500 {
  readonly group: 'ICMSSN500';
  readonly orig: Orig;
  readonly CSOSN: '500';
  readonly retained?: StRetained & { readonly pST: DecimalText };
  readonly fcpStRetained?: FcpStRetained;
  readonly effective?: Effective;
}
export interface IcmsSn900 {
  readonly group: 'ICMSSN900';
  readonly orig: Orig;
  readonly CSOSN: '900';
  readonly own?: OwnIcms;
  readonly st?: IcmsSt;
  readonly credit?: { readonly pCredSN: DecimalText; readonly vCredICMSSN: DecimalText };
}

export type NfeIcms =
  | Icms00
  | Icms02
  | Icms10
  | Icms15
  | Icms20
  | Icms30
  | Icms40
  | Icms51
  | Icms53
  | Icms60
  | Icms61
  | Icms70
  | Icms90
  | IcmsPart
  | IcmsStRepasse
  | IcmsSn101
  | IcmsSn102
  | IcmsSn201
  | IcmsSn202
  | IcmsSn500
  | IcmsSn900;

export type NfeIcmsGroup = NfeIcms['group'];
