// imposto/IBSCBS (TTribNFe, DFeTiposBasicos_v1.00) and total/IBSCBSTot, the regular gIBSCBS case only.
import type { DecimalText } from './nfe-document.js';

export interface NfeIbsCbs {
  readonly CST: string; // 3 digits
  readonly cClassTrib: string; // 6 digits
  readonly gIBSCBS: {
    readonly vBC: DecimalText;
    readonly gIBSUF: { readonly pIBSUF: DecimalText; readonly vIBSUF: DecimalText };
    readonly gIBSMun: { readonly pIBSMun: DecimalText; readonly vIBSMun: DecimalText };
    /** vIBSUF + vIBSMun. */
    readonly vIBS: DecimalText;
    readonly gCBS: { readonly pCBS: DecimalText; readonly vCBS: DecimalText };
  };
}

export interface NfeIbsCbsTot {
  readonly vBCIBSCBS: DecimalText;
  readonly gIBS: {
    readonly gIBSUF: { readonly vDif: DecimalText; readonly vDevTrib: DecimalText; readonly vIBSUF: DecimalText };
    readonly gIBSMun: { readonly vDif: DecimalText; readonly vDevTrib: DecimalText; readonly vIBSMun: DecimalText };
    readonly vIBS: DecimalText;
    readonly vCredPres: DecimalText;
    readonly vCredPresCondSus: DecimalText;
  };
  readonly gCBS: {
    readonly vDif: DecimalText;
    readonly vDevTrib: DecimalText;
    readonly vCBS: DecimalText;
    readonly vCredPres: DecimalText;
    readonly vCredPresCondSus: DecimalText;
  };
}
