// Test support: a fast-check arbitrary of an NF-e item's ICMS, every group (ICMS00 … ICMS90, ICMSPart, ICMSST,
// ICMSSN101 … ICMSSN900) with its optional parts (FCP, desoneration, retained ST, effective rate).
import fc from 'fast-check';
import type { NfeIcms } from '@talao/fiscal-model';
import { money, qty4, rate } from './layout-arbitraries.js';

const orig = fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8' as const);
const modBC = fc.constantFrom('0', '1', '2', '3' as const);

const st = fc.record({
  modBCST: fc.constantFrom('0', '1', '2', '3', '4', '5', '6' as const),
  pMVAST: fc.option(rate, { nil: undefined }),
  pRedBCST: fc.option(rate, { nil: undefined }),
  vBCST: money,
  pICMSST: rate,
  vICMSST: money,
  fcpSt: fc.option(fc.record({ vBCFCPST: money, pFCPST: rate, vFCPST: money }), { nil: undefined }),
});
const fcpWithBase = fc.option(fc.record({ vBCFCP: money, pFCP: rate, vFCP: money }), { nil: undefined });
const deson = fc.option(
  fc.record({
    vICMSDeson: money,
    motDesICMS: fc.constant('9'),
    indDeduzDeson: fc.option(fc.constantFrom('0', '1' as const), { nil: undefined }),
  }),
  { nil: undefined },
);
const desonSt = fc.option(fc.record({ vICMSSTDeson: money, motDesICMSST: fc.constant('9') }), { nil: undefined });
const retained = fc.record({ vBCSTRet: money, pST: rate, vICMSSubstituto: fc.option(money, { nil: undefined }), vICMSSTRet: money });
const fcpStRetained = fc.option(fc.record({ vBCFCPSTRet: money, pFCPSTRet: rate, vFCPSTRet: money }), { nil: undefined });
const effective = fc.option(fc.record({ pRedBCEfet: rate, vBCEfet: money, pICMSEfet: rate, vICMSEfet: money }), { nil: undefined });
const own = fc.record({ modBC, vBC: money, pRedBC: fc.option(rate, { nil: undefined }), pICMS: rate, vICMS: money });
/** The own ICMS on a reduced base with its FCP, as ICMS20 and ICMS70 carry it. */
const reducedBase = { modBC, pRedBC: rate, vBC: money, pICMS: rate, vICMS: money, fcp: fcpWithBase };

export const icmsArbitrary: fc.Arbitrary<NfeIcms> = fc.oneof(
  fc.record({
    group: fc.constant('ICMS00'),
    orig,
    CST: fc.constant('00'),
    modBC,
    vBC: money,
    pICMS: rate,
    vICMS: money,
    fcp: fc.option(fc.record({ pFCP: rate, vFCP: money }), { nil: undefined }),
  }),
  fc.record({ group: fc.constant('ICMS02'), orig, CST: fc.constant('02'), qBCMono: qty4, adRemICMS: rate, vICMSMono: money }),
  fc.record({
    group: fc.constant('ICMS10'),
    orig,
    CST: fc.constant('10'),
    modBC,
    vBC: money,
    pICMS: rate,
    vICMS: money,
    fcp: fcpWithBase,
    st,
    desonSt,
  }),
  fc.record({
    group: fc.constant('ICMS15'),
    orig,
    CST: fc.constant('15'),
    qBCMono: qty4,
    adRemICMS: rate,
    vICMSMono: money,
    qBCMonoReten: qty4,
    adRemICMSReten: rate,
    vICMSMonoReten: money,
    reduction: fc.option(fc.record({ pRedAdRem: rate, motRedAdRem: fc.constantFrom('1', '9' as const) }), { nil: undefined }),
  }),
  fc.record({
    group: fc.constant('ICMS20'),
    orig,
    CST: fc.constant('20'),
    ...reducedBase,
    deson,
  }),
  fc.record({ group: fc.constant('ICMS30'), orig, CST: fc.constant('30'), st, deson }),
  fc.record({ group: fc.constant('ICMS40'), orig, CST: fc.constantFrom('40', '41', '50' as const), deson }),
  fc.record({
    group: fc.constant('ICMS51'),
    orig,
    CST: fc.constant('51'),
    modBC,
    pRedBC: fc.option(rate, { nil: undefined }),
    vBC: money,
    pICMS: rate,
    vICMSOp: money,
    pDif: rate,
    vICMSDif: money,
    vICMS: money,
    fcp: fcpWithBase,
  }),
  fc.record({
    group: fc.constant('ICMS53'),
    orig,
    CST: fc.constant('53'),
    qBCMono: qty4,
    adRemICMS: rate,
    vICMSMonoOp: money,
    pDif: rate,
    vICMSMonoDif: money,
    vICMSMono: money,
  }),
  fc.record({
    group: fc.constant('ICMS60'),
    orig,
    CST: fc.constant('60'),
    retained: fc.option(retained, { nil: undefined }),
    fcpStRetained,
    effective,
  }),
  fc.record({ group: fc.constant('ICMS61'), orig, CST: fc.constant('61'), qBCMonoRet: qty4, adRemICMSRet: rate, vICMSMonoRet: money }),
  fc.record({
    group: fc.constant('ICMS70'),
    orig,
    CST: fc.constant('70'),
    ...reducedBase,
    st,
    deson,
    desonSt,
  }),
  fc.record({
    group: fc.constant('ICMS90'),
    orig,
    CST: fc.constant('90'),
    own: fc.option(
      fc.tuple(own, fcpWithBase).map(([o, fcp]) => ({ ...o, fcp })),
      { nil: undefined },
    ),
    st: fc.option(st, { nil: undefined }),
    deson,
    desonSt,
  }),
  fc.record({
    group: fc.constant('ICMSPart'),
    orig,
    CST: fc.constantFrom('10', '90' as const),
    modBC,
    vBC: money,
    pRedBC: fc.option(rate, { nil: undefined }),
    pICMS: rate,
    vICMS: money,
    st,
    pBCOp: rate,
    UFST: fc.constantFrom('SP', 'RJ', 'EX'),
  }),
  fc.record({
    group: fc.constant('ICMSST'),
    orig,
    CST: fc.constantFrom('41', '60' as const),
    retained,
    fcpStRetained,
    vBCSTDest: money,
    vICMSSTDest: money,
    effective,
  }),
  fc.record({ group: fc.constant('ICMSSN101'), orig, CSOSN: fc.constant('101'), pCredSN: rate, vCredICMSSN: money }),
  fc.record({ group: fc.constant('ICMSSN102'), orig, CSOSN: fc.constantFrom('102', '103', '300', '400' as const) }),
  fc.record({ group: fc.constant('ICMSSN201'), orig, CSOSN: fc.constant('201'), st, pCredSN: rate, vCredICMSSN: money }),
  fc.record({ group: fc.constant('ICMSSN202'), orig, CSOSN: fc.constantFrom('202', '203' as const), st }),
  fc.record({
    group: fc.constant('ICMSSN500'),
    orig,
    CSOSN: fc.constant('500'),
    retained: fc.option(retained, { nil: undefined }),
    fcpStRetained,
    effective,
  }),
  fc.record({
    group: fc.constant('ICMSSN900'),
    orig,
    CSOSN: fc.constant('900'),
    own: fc.option(own, { nil: undefined }),
    st: fc.option(st, { nil: undefined }),
    credit: fc.option(fc.record({ pCredSN: rate, vCredICMSSN: money }), { nil: undefined }),
  }),
) as fc.Arbitrary<NfeIcms>;
