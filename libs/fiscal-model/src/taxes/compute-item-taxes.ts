// All taxes of one NF-e item, in dependency order: IPI first (it joins the ICMS and ST bases), then ICMS,
// PIS, COFINS and IBS/CBS.
import { Dec, ZERO } from '../decimal/money.js';
import type { NfeImposto } from '../documents/nfe-document.js';
import type { ValidatedItem } from '../request/validated-request.js';
import { type IbsCbsAmounts, computeIbsCbs } from './compute-ibs-cbs.js';
import { computeIpi, computeSocialContribution } from './compute-federal.js';
import { type IcmsAmounts, computeIcms } from './compute-icms.js';
import { computeIcmsDestination } from './compute-icms-destination.js';

export interface ItemTaxes {
  readonly imposto: NfeImposto;
  readonly icms: IcmsAmounts;
  readonly ipi: Dec;
  readonly pis: Dec;
  readonly cofins: Dec;
  readonly ibsCbs?: IbsCbsAmounts;
  /** DIFAL amounts, present with ICMSUFDest. */
  readonly destination?: { readonly vFCPUFDest: Dec; readonly vICMSUFDest: Dec };
}

export function computeItemTaxes(item: ValidatedItem, finalConsumer: boolean): ItemTaxes {
  const tax = item.tax;
  if (!tax) throw new Error(`item ${item.index} has no tax: NF-e items are validated with one`);
  const total = new Dec(item.total);
  const quantity = new Dec(item.quantity);
  const ipi = tax.ipi ? computeIpi(tax.ipi, total, quantity) : undefined;
  const icms = computeIcms(tax.icms, { itemTotal: total, ipi: ipi?.amount ?? ZERO, finalConsumer, quantity });
  const pis = computeSocialContribution(tax.pis, total, quantity);
  const cofins = computeSocialContribution(tax.cofins, total, quantity);
  const ibsCbs = item.ibsCbs ? computeIbsCbs(item.ibsCbs, total) : undefined;
  const destination = tax.icms_destination ? computeIcmsDestination(tax.icms_destination, total.plus(ipi?.amount ?? ZERO)) : undefined;
  return {
    imposto: {
      ICMS: icms.group,
      ...(ipi ? { IPI: ipi.group } : {}),
      PIS: pis.group,
      COFINS: cofins.group,
      ...(destination ? { ICMSUFDest: destination.group } : {}),
      ...(ibsCbs ? { IBSCBS: ibsCbs.group } : {}),
    },
    icms: icms.amounts,
    ipi: ipi?.amount ?? ZERO,
    pis: pis.amount,
    cofins: cofins.amount,
    ...(ibsCbs ? { ibsCbs: ibsCbs.amounts } : {}),
    ...(destination ? { destination: { vFCPUFDest: destination.vFCPUFDest, vICMSUFDest: destination.vICMSUFDest } } : {}),
  };
}
