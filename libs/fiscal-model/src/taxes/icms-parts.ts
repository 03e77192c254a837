// Pieces shared by several ICMS groups. Every amount: half-up to 2 places; bases are rounded before rates apply,
// as the authorizers recompute them (vICMS = round2(vBC × pICMS / 100) with the vBC printed in the XML).
import { Dec, HUNDRED, ZERO, fixed, money, percentOf, rate, round2 } from '../decimal/money.js';
import type { Deson, Effective, Fcp, FcpStRetained, IcmsSt, ModBC, ModBCST, OwnIcms, StRetained } from '../documents/nfe-icms.js';
import type { IcmsInput } from '../request/validated-request.js';

export interface IcmsContext {
  /** The item total: gross − discount + freight + insurance + other expenses. */
  readonly itemTotal: Dec;
  /** vIPI of the item (0 without IPI). */
  readonly ipi: Dec;
  /** IPI joins the own ICMS base when the buyer is a final consumer (LC 87/96 art. 13 §2). */
  readonly finalConsumer: boolean;
  readonly quantity: Dec;
}

/** The operation base before reductions. */
export function operationBase(ctx: IcmsContext): Dec {
  return ctx.finalConsumer ? ctx.itemTotal.plus(ctx.ipi) : ctx.itemTotal;
}

/** base × (1 − reduction / 100), rounded. */
export function reduced(base: Dec, reduction: string | undefined): Dec {
  if (reduction === undefined) return round2(base);
  return round2(base.times(HUNDRED.minus(reduction)).dividedBy(HUNDRED));
}

export interface OwnComputed {
  readonly xml: OwnIcms;
  readonly vBC: Dec;
  readonly vICMS: Dec;
}

export function ownIcms(icms: IcmsInput, ctx: IcmsContext, share?: string): OwnComputed {
  let base = operationBase(ctx);
  if (share !== undefined) base = base.times(share).dividedBy(HUNDRED);
  const vBC = reduced(base, icms.base_reduction);
  const vICMS = percentOf(vBC, icms.rate!);
  return {
    xml: {
      modBC: (icms.base_mode ?? '3') as ModBC,
      vBC: money(vBC),
      ...(icms.base_reduction !== undefined ? { pRedBC: rate(icms.base_reduction) } : {}),
      pICMS: rate(icms.rate!),
      vICMS: money(vICMS),
    },
    vBC,
    vICMS,
  };
}

/** FCP on the own operation: base = vBC; ICMS00 omits vBCFCP. */
export function fcp(icms: IcmsInput, vBC: Dec, withBase: boolean): { xml: Fcp; value: Dec } | undefined {
  if (icms.fcp_rate === undefined) return undefined;
  const value = percentOf(vBC, icms.fcp_rate);
  return { xml: { ...(withBase ? { vBCFCP: money(vBC) } : {}), pFCP: rate(icms.fcp_rate), vFCP: money(value) }, value };
}

export interface StComputed {
  readonly xml: IcmsSt;
  readonly vBCST: Dec;
  readonly vICMSST: Dec;
  readonly vFCPST: Dec;
}

/**
 * ST: base by modBCST — 4 (MVA): (item total + IPI) × (1 − pRedBCST) × (1 + pMVAST); 6 (operation value):
 * (item total + IPI) × (1 − pRedBCST); 0–3 and 5 (price lists, pauta): the base given.
 * vICMSST = round2(vBCST × pICMSST) − the own ICMS (never below zero). FCP-ST on the same base.
 */
export function stIcms(st: NonNullable<IcmsInput['st']>, ctx: IcmsContext, ownIcmsDeducted: Dec): StComputed {
  const mode = (st.base_mode ?? '4') as ModBCST;
  const gross = ctx.itemTotal.plus(ctx.ipi);
  let vBCST: Dec;
  if (mode === '4' || mode === '6') {
    let base = gross;
    if (st.base_reduction !== undefined) base = base.times(HUNDRED.minus(st.base_reduction)).dividedBy(HUNDRED);
    if (mode === '4') base = base.times(HUNDRED.plus(st.margin!)).dividedBy(HUNDRED);
    vBCST = round2(base);
  } else {
    vBCST = new Dec(st.base!);
  }
  const full = percentOf(vBCST, st.rate);
  const vICMSST = Dec.max(ZERO, full.minus(ownIcmsDeducted));
  const fcpValue = st.fcp_rate === undefined ? ZERO : percentOf(vBCST, st.fcp_rate);
  return {
    xml: {
      modBCST: mode,
      ...(st.margin !== undefined && mode === '4' ? { pMVAST: rate(st.margin) } : {}),
      ...(st.base_reduction !== undefined ? { pRedBCST: rate(st.base_reduction) } : {}),
      vBCST: money(vBCST),
      pICMSST: rate(st.rate),
      vICMSST: money(vICMSST),
      ...(st.fcp_rate !== undefined ? { fcpSt: { vBCFCPST: money(vBCST), pFCPST: rate(st.fcp_rate), vFCPST: money(fcpValue) } } : {}),
    },
    vBCST,
    vICMSST,
    vFCPST: fcpValue,
  };
}

/**
 * Relieved ICMS: the amount given, or for CST 20/70/90 the ICMS without the base reduction minus the ICMS
 * charged, or (other CSTs, or when relief.rate is given) round2(item base × relief.rate / 100).
 */
export function relief(
  icms: IcmsInput,
  ctx: IcmsContext,
  charged: Dec | undefined,
): { xml: Deson; value: Dec; deducted: boolean } | undefined {
  const r = icms.relief;
  if (!r) return undefined;
  let value: Dec;
  if (r.amount !== undefined) value = new Dec(r.amount);
  else if (r.rate !== undefined) value = percentOf(operationBase(ctx), r.rate);
  else value = Dec.max(ZERO, percentOf(round2(operationBase(ctx)), icms.rate!).minus(charged ?? ZERO));
  return {
    xml: { vICMSDeson: money(value), motDesICMS: r.reason, ...(r.deducted !== undefined ? { indDeduzDeson: r.deducted ? '1' : '0' } : {}) },
    value,
    deducted: r.deducted === true,
  };
}

export interface RetainedComputed {
  readonly retained?: StRetained & { readonly pST: string };
  readonly fcpStRetained?: FcpStRetained;
  readonly effective?: Effective;
  readonly vFCPSTRetValue: Dec;
}

/** ST retained earlier (60, ICMSST, SN500): amounts default to base × rate; effective ICMS on the item total. */
export function retainedSt(retainedInput: IcmsInput['retained'], ctx: IcmsContext): RetainedComputed {
  if (!retainedInput) return { vFCPSTRetValue: ZERO };
  const r = retainedInput;
  const vICMSSTRet = r.amount !== undefined ? new Dec(r.amount) : percentOf(r.base, r.rate);
  const fcpBase = new Dec(r.fcp_base ?? r.base);
  const fcpValue = r.fcp_rate === undefined ? ZERO : percentOf(fcpBase, r.fcp_rate);
  let effective: Effective | undefined;
  if (r.effective) {
    const vBCEfet = reduced(ctx.itemTotal, r.effective.base_reduction);
    effective = {
      pRedBCEfet: rate(r.effective.base_reduction ?? '0'),
      vBCEfet: money(vBCEfet),
      pICMSEfet: rate(r.effective.rate),
      vICMSEfet: money(percentOf(vBCEfet, r.effective.rate)),
    };
  }
  return {
    retained: {
      vBCSTRet: money(r.base),
      pST: rate(r.rate),
      ...(r.substitute_amount !== undefined ? { vICMSSubstituto: money(r.substitute_amount) } : {}),
      vICMSSTRet: money(vICMSSTRet),
    },
    ...(r.fcp_rate !== undefined
      ? { fcpStRetained: { vBCFCPSTRet: money(fcpBase), pFCPSTRet: rate(r.fcp_rate), vFCPSTRet: money(fcpValue) } }
      : {}),
    ...(effective ? { effective } : {}),
    vFCPSTRetValue: fcpValue,
  };
}

/** Monophasic quantity with 4 places (qBCMono, TDec_1104v). */
export function monoQuantity(value: string | undefined, ctx: IcmsContext): Dec {
  return new Dec(value ?? ctx.quantity);
}

export { fixed, money, rate };
