// total/ICMSTot and total/IBSCBSTot: sums of the items, each formatted once at the end (the items' amounts are
// already rounded, so the sums are exact).
import { type Dec, ZERO, money, sum } from '../decimal/money.js';
import type { ValidatedItem } from '../request/validated-request.js';
import type { ItemTaxes } from '../taxes/compute-item-taxes.js';
import type { NfeIcmsTot } from './nfe-document.js';
import type { NfeIbsCbsTot } from './nfe-ibs-cbs.js';

export interface NfeTotals {
  readonly ICMSTot: NfeIcmsTot;
  readonly IBSCBSTot?: NfeIbsCbsTot;
  readonly vNF: Dec;
}

export function computeTotals(items: readonly ValidatedItem[], taxes: readonly ItemTaxes[]): NfeTotals {
  const add = (pick: (t: ItemTaxes) => Dec) => sum(taxes.map(pick));
  const addItem = (pick: (i: ValidatedItem) => string) => sum(items.map(pick));
  const vProd = addItem((i) => i.gross);
  const vDesc = addItem((i) => i.discount);
  const vFrete = addItem((i) => i.freight);
  const vSeg = addItem((i) => i.insurance);
  const vOutro = addItem((i) => i.otherExpenses);
  const vST = add((t) => t.icms.vST);
  const vFCPST = add((t) => t.icms.vFCPST);
  const vIPI = add((t) => t.ipi);
  const deducted = add((t) => t.icms.vICMSDesonDeducted);
  // NT 2023.004: vNF = vProd − vDesc − vICMSDeson (when indDeduzDeson = 1) + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol
  const vNF = vProd.minus(vDesc).minus(deducted).plus(vST).plus(vFCPST).plus(vFrete).plus(vSeg).plus(vOutro).plus(vIPI);
  const mono = taxes.some((t) => t.icms.monophasic);
  const ICMSTot: NfeIcmsTot = {
    vBC: money(add((t) => t.icms.vBC)),
    vICMS: money(add((t) => t.icms.vICMS)),
    vICMSDeson: money(add((t) => t.icms.vICMSDeson)),
    ...(taxes.some((t) => t.destination)
      ? {
          vFCPUFDest: money(add((t) => t.destination?.vFCPUFDest ?? ZERO)),
          vICMSUFDest: money(add((t) => t.destination?.vICMSUFDest ?? ZERO)),
          vICMSUFRemet: '0.00',
        }
      : {}),
    vFCP: money(add((t) => t.icms.vFCP)),
    vBCST: money(add((t) => t.icms.vBCST)),
    vST: money(vST),
    vFCPST: money(vFCPST),
    vFCPSTRet: money(add((t) => t.icms.vFCPSTRet)),
    ...(mono
      ? {
          qBCMono: money(add((t) => t.icms.qBCMono)),
          vICMSMono: money(add((t) => t.icms.vICMSMono)),
          qBCMonoReten: money(add((t) => t.icms.qBCMonoReten)),
          vICMSMonoReten: money(add((t) => t.icms.vICMSMonoReten)),
          qBCMonoRet: money(add((t) => t.icms.qBCMonoRet)),
          vICMSMonoRet: money(add((t) => t.icms.vICMSMonoRet)),
        }
      : {}),
    vProd: money(vProd),
    vFrete: money(vFrete),
    vSeg: money(vSeg),
    vDesc: money(vDesc),
    vII: '0.00',
    vIPI: money(vIPI),
    vIPIDevol: '0.00',
    vPIS: money(add((t) => t.pis)),
    vCOFINS: money(add((t) => t.cofins)),
    vOutro: money(vOutro),
    vNF: money(vNF),
  };
  const withReform = taxes.filter((t) => t.ibsCbs);
  if (withReform.length === 0) return { ICMSTot, vNF };
  const r = (pick: (a: NonNullable<ItemTaxes['ibsCbs']>) => Dec) => money(sum(withReform.map((t) => pick(t.ibsCbs!))));
  const zero = money(ZERO);
  const IBSCBSTot: NfeIbsCbsTot = {
    vBCIBSCBS: r((a) => a.base),
    gIBS: {
      gIBSUF: { vDif: zero, vDevTrib: zero, vIBSUF: r((a) => a.state) },
      gIBSMun: { vDif: zero, vDevTrib: zero, vIBSMun: r((a) => a.city) },
      vIBS: r((a) => a.state.plus(a.city)),
      vCredPres: zero,
      vCredPresCondSus: zero,
    },
    gCBS: { vDif: zero, vDevTrib: zero, vCBS: r((a) => a.federal), vCredPres: zero, vCredPresCondSus: zero },
  };
  return { ICMSTot, IBSCBSTot, vNF };
}
