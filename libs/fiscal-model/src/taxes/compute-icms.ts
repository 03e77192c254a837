// One ICMS group per item from the issuer's decision (CST/CSOSN and its fields). Which group: the code, plus
// `partition` (CST 10/90 → ICMSPart) and `st_transfer` (CST 41/60 → ICMSST).
import { type Dec, ZERO, percentOf, round2 } from '../decimal/money.js';
import type { Fcp, IcmsSt, NfeIcms, Orig } from '../documents/nfe-icms.js';
import type { IcmsInput } from '../request/validated-request.js';
import {
  type IcmsContext,
  type OwnComputed,
  type RetainedComputed,
  type StComputed,
  fcp,
  fixed,
  money,
  monoQuantity,
  operationBase,
  ownIcms,
  rate,
  relief,
  retainedSt,
  stIcms,
} from './icms-parts.js';

/** What an item adds to ICMSTot. */
export interface IcmsAmounts {
  vBC: Dec;
  vICMS: Dec;
  vICMSDeson: Dec;
  /** Relief with indDeduzDeson = 1: subtracted from vNF. */
  vICMSDesonDeducted: Dec;
  vFCP: Dec;
  vBCST: Dec;
  vST: Dec;
  vFCPST: Dec;
  vFCPSTRet: Dec;
  qBCMono: Dec;
  vICMSMono: Dec;
  qBCMonoReten: Dec;
  vICMSMonoReten: Dec;
  qBCMonoRet: Dec;
  vICMSMonoRet: Dec;
  monophasic: boolean;
}

export function emptyIcmsAmounts(): IcmsAmounts {
  return {
    vBC: ZERO,
    vICMS: ZERO,
    vICMSDeson: ZERO,
    vICMSDesonDeducted: ZERO,
    vFCP: ZERO,
    vBCST: ZERO,
    vST: ZERO,
    vFCPST: ZERO,
    vFCPSTRet: ZERO,
    qBCMono: ZERO,
    vICMSMono: ZERO,
    qBCMonoReten: ZERO,
    vICMSMonoReten: ZERO,
    qBCMonoRet: ZERO,
    vICMSMonoRet: ZERO,
    monophasic: false,
  };
}

export interface IcmsComputed {
  readonly group: NfeIcms;
  readonly amounts: IcmsAmounts;
}

const q4 = (d: Dec) => fixed(d, 4);

export function computeIcms(icms: IcmsInput, ctx: IcmsContext): IcmsComputed {
  const orig = icms.origin as Orig;
  const a = emptyIcmsAmounts();
  const addSt = (st: StComputed) => {
    a.vBCST = st.vBCST;
    a.vST = st.vICMSST;
    a.vFCPST = st.vFCPST;
    return st.xml;
  };
  const addOwn = (own: OwnComputed, f?: { value: Dec }) => {
    a.vBC = own.vBC;
    a.vICMS = own.vICMS;
    a.vFCP = f?.value ?? ZERO;
  };
  const deson = (charged: Dec | undefined) => {
    const r = relief(icms, ctx, charged);
    if (!r) return {};
    a.vICMSDeson = r.value;
    if (r.deducted) a.vICMSDesonDeducted = r.value;
    return { deson: r.xml };
  };
  const fcpXml = (f: { xml: Fcp } | undefined) => (f ? { fcp: f.xml } : {});
  const desonSt = icms.st?.relief ? { desonSt: { vICMSSTDeson: money(icms.st.relief.amount), motDesICMSST: icms.st.relief.reason } } : {};

  if (icms.csosn !== undefined) return { group: computeSimples(icms, ctx, orig, a, addSt), amounts: a };

  const cst = icms.cst!;
  switch (cst) {
    case '00': {
      const own = ownIcms(icms, ctx);
      const f = fcp(icms, own.vBC, false);
      addOwn(own, f);
      const { modBC, vBC, pICMS, vICMS } = own.xml;
      return { group: { group: 'ICMS00', orig, CST: '00', modBC, vBC, pICMS, vICMS, ...fcpXml(f) }, amounts: a };
    }
    case '10':
    case '90':
      if (icms.partition) {
        const own = ownIcms(icms, ctx, icms.partition.operation_base_rate);
        addOwn(own);
        const st = addSt(stIcms(icms.st!, ctx, own.vICMS));
        return {
          group: {
            group: 'ICMSPart',
            orig,
            CST: cst,
            ...own.xml,
            st,
            pBCOp: rate(icms.partition.operation_base_rate),
            UFST: icms.partition.st_state,
          },
          amounts: a,
        };
      }
      if (cst === '10') {
        const own = ownIcms(icms, ctx);
        const f = fcp(icms, own.vBC, true);
        addOwn(own, f);
        const st = addSt(stIcms(icms.st!, ctx, own.vICMS));
        const { modBC, vBC, pICMS, vICMS } = own.xml;
        return { group: { group: 'ICMS10', orig, CST: '10', modBC, vBC, pICMS, vICMS, ...fcpXml(f), st, ...desonSt }, amounts: a };
      } else {
        const own = icms.rate !== undefined ? ownIcms(icms, ctx) : undefined;
        const f = own ? fcp(icms, own.vBC, true) : undefined;
        if (own) addOwn(own, f);
        const st = icms.st ? addSt(stIcms(icms.st, ctx, own?.vICMS ?? ZERO)) : undefined;
        return {
          group: {
            group: 'ICMS90',
            orig,
            CST: '90',
            ...(own ? { own: { ...own.xml, ...fcpXml(f) } } : {}),
            ...(st ? { st } : {}),
            ...deson(own?.vICMS),
            ...desonSt,
          },
          amounts: a,
        };
      }
    case '20':
    case '70': {
      const own = ownIcms(icms, ctx);
      const f = fcp(icms, own.vBC, true);
      addOwn(own, f);
      const { modBC, pRedBC, vBC, pICMS, vICMS } = own.xml;
      const common = { orig, modBC, pRedBC: pRedBC!, vBC, pICMS, vICMS, ...fcpXml(f), ...deson(own.vICMS) };
      if (cst === '20') return { group: { group: 'ICMS20', CST: '20', ...common }, amounts: a };
      const st = addSt(stIcms(icms.st!, ctx, own.vICMS));
      return { group: { group: 'ICMS70', CST: '70', ...common, st, ...desonSt }, amounts: a };
    }
    case '30': {
      const deducted = icms.rate !== undefined ? percentOf(round2(operationBase(ctx)), icms.rate) : ZERO;
      const st = addSt(stIcms(icms.st!, ctx, deducted));
      return { group: { group: 'ICMS30', orig, CST: '30', st, ...deson(undefined) }, amounts: a };
    }
    case '40':
    case '41':
    case '50':
    case '60':
      if (icms.st_transfer) {
        const r = retainedSt(icms.retained, ctx);
        a.vFCPSTRet = r.vFCPSTRetValue;
        return {
          group: {
            group: 'ICMSST',
            orig,
            CST: cst as '41' | '60',
            retained: r.retained!,
            ...(r.fcpStRetained ? { fcpStRetained: r.fcpStRetained } : {}),
            vBCSTDest: money(icms.st_transfer.destination_base),
            vICMSSTDest: money(percentOf(icms.st_transfer.destination_base, icms.st_transfer.destination_rate)),
            ...(r.effective ? { effective: r.effective } : {}),
          },
          amounts: a,
        };
      }
      if (cst === '60') {
        const r = retainedSt(icms.retained, ctx);
        a.vFCPSTRet = r.vFCPSTRetValue;
        return { group: { group: 'ICMS60', orig, CST: '60', ...retainedXml(r) }, amounts: a };
      }
      return { group: { group: 'ICMS40', orig, CST: cst as '40' | '41' | '50', ...deson(undefined) }, amounts: a };
    case '51': {
      const own = ownIcms(icms, ctx);
      const f = fcp(icms, own.vBC, true);
      const pDif = icms.deferral_rate ?? '0';
      const vICMSDif = percentOf(own.vICMS, pDif);
      const vICMS = own.vICMS.minus(vICMSDif);
      addOwn({ ...own, vICMS }, f);
      const x = own.xml;
      return {
        group: {
          group: 'ICMS51',
          orig,
          CST: '51',
          modBC: x.modBC,
          ...(x.pRedBC ? { pRedBC: x.pRedBC } : {}),
          vBC: x.vBC,
          pICMS: x.pICMS,
          vICMSOp: x.vICMS,
          pDif: rate(pDif),
          vICMSDif: money(vICMSDif),
          vICMS: money(vICMS),
          ...fcpXml(f),
        },
        amounts: a,
      };
    }
    default:
      return { group: computeMonophasic(icms, ctx, orig, a), amounts: a };
  }
}

function retainedXml(r: RetainedComputed) {
  return {
    ...(r.retained ? { retained: r.retained } : {}),
    ...(r.fcpStRetained ? { fcpStRetained: r.fcpStRetained } : {}),
    ...(r.effective ? { effective: r.effective } : {}),
  };
}

function computeMonophasic(icms: IcmsInput, ctx: IcmsContext, orig: Orig, a: IcmsAmounts): NfeIcms {
  const m = icms.monophasic!;
  const q = monoQuantity(m.quantity, ctx);
  const value = round2(q.times(m.ad_rem_rate));
  a.monophasic = true;
  // qBCMono and adRemICMS open the groups of the own operation (02, 15, 53).
  const own = { qBCMono: q4(q), adRemICMS: rate(m.ad_rem_rate) };
  switch (icms.cst) {
    case '02':
      a.qBCMono = q;
      a.vICMSMono = value;
      return { group: 'ICMS02', orig, CST: '02', ...own, vICMSMono: money(value) };
    case '15': {
      const qr = monoQuantity(m.retained_quantity, ctx);
      const retained = round2(qr.times(m.retained_ad_rem_rate!));
      a.qBCMono = q;
      a.vICMSMono = value;
      a.qBCMonoReten = qr;
      a.vICMSMonoReten = retained;
      return {
        group: 'ICMS15',
        orig,
        CST: '15',
        ...own,
        vICMSMono: money(value),
        qBCMonoReten: q4(qr),
        adRemICMSReten: rate(m.retained_ad_rem_rate!),
        vICMSMonoReten: money(retained),
        ...(m.rate_reduction ? { reduction: { pRedAdRem: fixed(m.rate_reduction.rate, 2), motRedAdRem: m.rate_reduction.reason } } : {}),
      };
    }
    case '53': {
      const pDif = m.deferral_rate ?? '0';
      const dif = percentOf(value, pDif);
      const due = value.minus(dif);
      Object.assign(a, { qBCMono: q, vICMSMono: due });
      return {
        group: 'ICMS53',
        orig,
        CST: '53',
        ...own,
        vICMSMonoOp: money(value),
        pDif: rate(pDif),
        vICMSMonoDif: money(dif),
        vICMSMono: money(due),
      };
    }
    default:
      a.qBCMonoRet = q;
      a.vICMSMonoRet = value;
      return { group: 'ICMS61', orig, CST: '61', qBCMonoRet: q4(q), adRemICMSRet: rate(m.ad_rem_rate), vICMSMonoRet: money(value) };
  }
}

function computeSimples(icms: IcmsInput, ctx: IcmsContext, orig: Orig, a: IcmsAmounts, addSt: (st: StComputed) => IcmsSt): NfeIcms {
  const credit = () => ({ pCredSN: rate(icms.credit_rate!), vCredICMSSN: money(percentOf(ctx.itemTotal, icms.credit_rate!)) });
  // ST for Simples issuers deducts the ICMS of the own operation at `rate` (0 when absent).
  const ownDeducted = icms.rate !== undefined ? percentOf(round2(operationBase(ctx)), icms.rate) : ZERO;
  switch (icms.csosn) {
    case '101':
      return { group: 'ICMSSN101', orig, CSOSN: '101', ...credit() };
    case '102':
    case '103':
    case '300':
    case '400':
      return { group: 'ICMSSN102', orig, CSOSN: icms.csosn };
    case '201':
      return { group: 'ICMSSN201', orig, CSOSN: '201', st: addSt(stIcms(icms.st!, ctx, ownDeducted)), ...credit() };
    case '202':
    case '203':
      return { group: 'ICMSSN202', orig, CSOSN: icms.csosn, st: addSt(stIcms(icms.st!, ctx, ownDeducted)) };
    case '500': {
      const r = retainedSt(icms.retained, ctx);
      a.vFCPSTRet = r.vFCPSTRetValue;
      return { group: 'ICMSSN500', orig, CSOSN: '500', ...retainedXml(r) };
    }
    default: {
      const own = icms.rate !== undefined ? ownIcms(icms, ctx) : undefined;
      if (own) {
        a.vBC = own.vBC;
        a.vICMS = own.vICMS;
      }
      const st = icms.st ? addSt(stIcms(icms.st, ctx, own?.vICMS ?? ZERO)) : undefined;
      return {
        group: 'ICMSSN900',
        orig,
        CSOSN: '900',
        ...(own ? { own: own.xml } : {}),
        ...(st ? { st } : {}),
        ...(icms.credit_rate !== undefined ? { credit: credit() } : {}),
      };
    }
  }
}
