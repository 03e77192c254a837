// fast-check generators of `tax.icms` decisions, one per ICMS group of layout 4.00, all valid by construction.
import fc from 'fast-check';

/** A percent with up to 2 places in [min, max]. */
export const percentArb = (min = 0, max = 30) => fc.integer({ min: min * 100, max: max * 100 }).map((n) => (n / 100).toFixed(2));
const positivePercent = (max = 30) => percentArb(0.01, max);
const origin = fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8');
const adRem = fc.integer({ min: 1, max: 99999 }).map((n) => (n / 10000).toFixed(4));
const stArb = fc.oneof(
  fc.record({ margin: percentArb(0, 150), rate: positivePercent(), fcp_rate: fc.option(percentArb(0.01, 4), { nil: undefined }) }),
  fc.record({
    base_mode: fc.constant('6' as const),
    base_reduction: fc.option(percentArb(0, 60), { nil: undefined }),
    rate: positivePercent(),
  }),
  fc.record({
    base_mode: fc.constantFrom('0', '1', '2', '3', '5'),
    base: fc.integer({ min: 1, max: 10_000_000 }).map((c) => (c / 100).toFixed(2)),
    rate: positivePercent(),
  }),
);
const retainedArb = fc.record({
  base: fc.integer({ min: 1, max: 1_000_000 }).map((c) => (c / 100).toFixed(2)),
  rate: positivePercent(),
  fcp_rate: fc.option(percentArb(0.01, 4), { nil: undefined }),
  effective: fc.option(fc.record({ rate: positivePercent() }), { nil: undefined }),
});
const clean = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Groups reachable with a CST (CRT 2 and 3 issuers). */
export const CST_GROUP_ARBITRARIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  ICMS00: fc
    .record({ cst: fc.constant('00'), origin, rate: positivePercent(), fcp_rate: fc.option(percentArb(0.01, 4), { nil: undefined }) })
    .map(clean),
  ICMS02: fc.record({ cst: fc.constant('02'), origin, monophasic: fc.record({ ad_rem_rate: adRem }) }),
  ICMS10: fc.record({ cst: fc.constant('10'), origin, rate: positivePercent(), st: stArb.map(clean) }),
  ICMS15: fc.record({ cst: fc.constant('15'), origin, monophasic: fc.record({ ad_rem_rate: adRem, retained_ad_rem_rate: adRem }) }),
  ICMS20: fc
    .record({
      cst: fc.constant('20'),
      origin,
      rate: positivePercent(),
      base_reduction: percentArb(0.01, 80),
      relief: fc.option(fc.record({ reason: fc.constantFrom('3', '9', '12') }), { nil: undefined }),
    })
    .map(clean),
  ICMS30: fc.record({ cst: fc.constant('30'), origin, st: stArb.map(clean) }),
  ICMS40: fc
    .record({
      cst: fc.constantFrom('40', '41', '50'),
      origin,
      relief: fc.option(fc.record({ reason: fc.constantFrom('1', '7', '9', '90'), rate: positivePercent() }), { nil: undefined }),
    })
    .map(clean),
  ICMS51: fc
    .record({ cst: fc.constant('51'), origin, rate: positivePercent(), deferral_rate: fc.option(percentArb(0, 100), { nil: undefined }) })
    .map(clean),
  ICMS53: fc.record({ cst: fc.constant('53'), origin, monophasic: fc.record({ ad_rem_rate: adRem, deferral_rate: percentArb(0, 100) }) }),
  ICMS60: fc.record({ cst: fc.constant('60'), origin, retained: fc.option(retainedArb.map(clean), { nil: undefined }) }).map(clean),
  ICMS61: fc.record({ cst: fc.constant('61'), origin, monophasic: fc.record({ ad_rem_rate: adRem }) }),
  ICMS70: fc.record({
    cst: fc.constant('70'),
    origin,
    rate: positivePercent(),
    base_reduction: percentArb(0.01, 80),
    st: stArb.map(clean),
  }),
  ICMS90: fc
    .record({
      cst: fc.constant('90'),
      origin,
      rate: fc.option(positivePercent(), { nil: undefined }),
      st: fc.option(stArb.map(clean), { nil: undefined }),
    })
    .map(clean),
  ICMSPart: fc.record({
    cst: fc.constantFrom('10', '90'),
    origin,
    rate: positivePercent(),
    st: stArb.map(clean),
    partition: fc.record({ operation_base_rate: percentArb(1, 100), st_state: fc.constantFrom('SP', 'MG', 'RJ', 'PR') }),
  }),
  ICMSST: fc.record({
    cst: fc.constantFrom('41', '60'),
    origin,
    retained: retainedArb.map(clean),
    st_transfer: fc.record({
      destination_base: fc.integer({ min: 1, max: 1_000_000 }).map((c) => (c / 100).toFixed(2)),
      destination_rate: positivePercent(),
    }),
  }),
};

/** Groups reachable with a CSOSN (CRT 1 and 4 issuers). */
export const CSOSN_GROUP_ARBITRARIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  ICMSSN101: fc.record({ csosn: fc.constant('101'), origin, credit_rate: positivePercent(5) }),
  ICMSSN102: fc.record({ csosn: fc.constantFrom('102', '103', '300', '400'), origin }),
  ICMSSN201: fc
    .record({
      csosn: fc.constant('201'),
      origin,
      credit_rate: positivePercent(5),
      st: stArb.map(clean),
      rate: fc.option(positivePercent(), { nil: undefined }),
    })
    .map(clean),
  ICMSSN202: fc.record({ csosn: fc.constantFrom('202', '203'), origin, st: stArb.map(clean) }),
  ICMSSN500: fc.record({ csosn: fc.constant('500'), origin, retained: fc.option(retainedArb.map(clean), { nil: undefined }) }).map(clean),
  ICMSSN900: fc
    .record({
      csosn: fc.constant('900'),
      origin,
      rate: fc.option(positivePercent(), { nil: undefined }),
      credit_rate: fc.option(positivePercent(5), { nil: undefined }),
    })
    .map(clean),
};

export const ALL_ICMS_GROUPS = [...Object.keys(CST_GROUP_ARBITRARIES), ...Object.keys(CSOSN_GROUP_ARBITRARIES)];
