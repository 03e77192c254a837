// imposto/IBSCBS (TTribNFe, DFeTiposBasicos_v1.00) and total/IBSCBSTot, the regular gIBSCBS case only.
import type { Dec } from './nfe-document.js';

export interface NfeIbsCbs {
  readonly CST: string; // 3 digits
  readonly cClassTrib: string; // 6 digits
  readonly gIBSCBS: {
    readonly vBC: Dec;
    readonly gIBSUF: { readonly pIBSUF: Dec; readonly vIBSUF: Dec };
    readonly gIBSMun: { readonly pIBSMun: Dec; readonly vIBSMun: Dec };
    /** vIBSUF + vIBSMun. */
    readonly vIBS: Dec;
    readonly gCBS: { readonly pCBS: Dec; readonly vCBS: Dec };
  };
}

export interface NfeIbsCbsTot {
  readonly vBCIBSCBS: Dec;
  readonly gIBS: {
    readonly gIBSUF: { readonly vDif: Dec; readonly vDevTrib: Dec; readonly vIBSUF: Dec };
    readonly gIBSMun: { readonly vDif: Dec; readonly vDevTrib: Dec; readonly vIBSMun: Dec };
    readonly vIBS: Dec;
    readonly vCredPres: Dec;
    readonly vCredPresCondSus: Dec;
  };
  readonly gCBS: { readonly vDif: Dec; readonly vDevTrib: Dec; readonly vCBS: Dec; readonly vCredPres: Dec; readonly vCredPresCondSus: Dec };
}
