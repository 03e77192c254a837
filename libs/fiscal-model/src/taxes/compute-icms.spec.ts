// Each ICMS group of layout 4.00 reached from a request, with amounts computed by hand (item: 10 × 10.00 = 100.00).
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';
import { SAMPLE_RJ_ADDRESS, sampleIssuer, sampleNfeItem, sampleNfeRequest } from '../testing/samples.js';
import { computeTotals } from '../documents/compute-totals.js';
import { computeItemTaxes } from './compute-item-taxes.js';

const NOW = new Date('2026-03-10T15:00:00Z');

function taxesFor(icms: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const csosn = 'csosn' in icms;
  const issuer = sampleIssuer(csosn ? 'simples_nacional' : 'normal');
  const body = sampleNfeRequest({
    items: [
      sampleNfeItem({
        quantity: '10',
        unit_price: '10',
        tax: { icms: { origin: '0', ...icms }, pis: { cst: '07' }, cofins: { cst: '07' }, ...extra },
      }),
    ],
  });
  const result = validateInvoiceRequest(body, issuer, { now: NOW });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return computeItemTaxes(result.value.items[0]!, result.value.finalConsumer);
}
/** group, orig and CST of a normal-regime group, as every expectation below starts. */
const head = (cst: string) => ({ group: `ICMS${cst}`, orig: '0', CST: cst });
const group = (icms: Record<string, unknown>, extra?: Record<string, unknown>) => taxesFor(icms, extra).imposto.ICMS;
/** The group computed for `icms` is exactly its head (from icms.cst) and `fields`. */
const expectGroup = (icms: Record<string, unknown>, fields: Record<string, unknown>) =>
  expect(group(icms)).toEqual({ ...head(icms['cst'] as string), ...fields });

describe('ICMS groups (CST)', () => {
  it('ICMS00 with FCP', () => {
    expectGroup(
      { cst: '00', rate: '18', fcp_rate: '2' },
      { modBC: '3', vBC: '100.00', pICMS: '18.00', vICMS: '18.00', fcp: { pFCP: '2.00', vFCP: '2.00' } },
    );
  });
  it('ICMS02 monophasic: qBCMono × adRem, half-up', () => {
    expectGroup({ cst: '02', monophasic: { ad_rem_rate: '1.2571' } }, { qBCMono: '10.0000', adRemICMS: '1.2571', vICMSMono: '12.57' });
  });
  it('ICMS10: own ICMS, ST by MVA minus own ICMS, FCP-ST', () => {
    const g = group({ cst: '10', rate: '12', st: { margin: '40', rate: '18', fcp_rate: '2' } });
    expect(g).toMatchObject({
      group: 'ICMS10',
      vBC: '100.00',
      vICMS: '12.00',
      st: {
        modBCST: '4',
        pMVAST: '40.00',
        vBCST: '140.00',
        pICMSST: '18.00',
        vICMSST: '13.20',
        fcpSt: { vBCFCPST: '140.00', pFCPST: '2.00', vFCPST: '2.80' },
      },
    });
  });
  it('ICMS10 with IPI: IPI joins the own base (final consumer) and the ST base', () => {
    const t = taxesFor({ cst: '10', rate: '12', st: { margin: '40', rate: '18' } }, { ipi: { cst: '50', rate: '10' } });
    expect(t.imposto.IPI).toEqual({ group: 'IPITrib', cEnq: '999', CST: '50', vBC: '100.00', pIPI: '10.00', vIPI: '10.00' });
    expect(t.imposto.ICMS).toMatchObject({ vBC: '110.00', vICMS: '13.20', st: { vBCST: '154.00', vICMSST: '14.52' } });
  });
  it('ICMS15: monophasic own and retained', () => {
    expect(
      group({
        cst: '15',
        monophasic: {
          ad_rem_rate: '1.2571',
          retained_quantity: '4',
          retained_ad_rem_rate: '0.5',
          rate_reduction: { rate: '10', reason: '1' },
        },
      }),
    ).toEqual({
      ...head('15'),
      qBCMono: '10.0000',
      adRemICMS: '1.2571',
      vICMSMono: '12.57',
      qBCMonoReten: '4.0000',
      adRemICMSReten: '0.50',
      vICMSMonoReten: '2.00',
      reduction: { pRedAdRem: '10.00', motRedAdRem: '1' },
    });
  });
  it('ICMS20: reduced base and computed relief', () => {
    const t = taxesFor({ cst: '20', rate: '18', base_reduction: '33.33', relief: { reason: '9' } });
    expect(t.imposto.ICMS).toEqual({
      ...head('20'),
      modBC: '3',
      pRedBC: '33.33',
      vBC: '66.67',
      pICMS: '18.00',
      vICMS: '12.00',
      deson: { vICMSDeson: '6.00', motDesICMS: '9' },
    });
    expect(t.icms.vICMSDeson.toFixed(2)).toBe('6.00');
  });
  it('ICMS30: ST deducting the own-operation ICMS at `rate`, relief by rate', () => {
    expect(group({ cst: '30', rate: '12', st: { margin: '40', rate: '18' }, relief: { reason: '7', rate: '18' } })).toMatchObject({
      group: 'ICMS30',
      st: { vBCST: '140.00', vICMSST: '13.20' },
      deson: { vICMSDeson: '18.00', motDesICMS: '7' },
    });
  });
  it('ICMS40 (40/41/50) with a deducted relief', () => {
    const t = taxesFor({ cst: '40', relief: { reason: '7', amount: '3.21', deducted: true } });
    expect(t.imposto.ICMS).toEqual({ ...head('40'), deson: { vICMSDeson: '3.21', motDesICMS: '7', indDeduzDeson: '1' } });
    expect(t.icms.vICMSDesonDeducted.toFixed(2)).toBe('3.21');
    expect(group({ cst: '41' })).toEqual({ group: 'ICMS40', orig: '0', CST: '41' });
    expect(group({ cst: '50' })).toEqual({ group: 'ICMS40', orig: '0', CST: '50' });
  });
  it('ICMS51: operation ICMS, deferred part and the remainder', () => {
    expectGroup(
      { cst: '51', rate: '18', deferral_rate: '33.33' },
      { modBC: '3', vBC: '100.00', pICMS: '18.00', vICMSOp: '18.00', pDif: '33.33', vICMSDif: '6.00', vICMS: '12.00' },
    );
  });
  it('ICMS53: monophasic with deferral', () => {
    expectGroup(
      { cst: '53', monophasic: { ad_rem_rate: '1', deferral_rate: '40' } },
      { qBCMono: '10.0000', adRemICMS: '1.00', vICMSMonoOp: '10.00', pDif: '40.00', vICMSMonoDif: '4.00', vICMSMono: '6.00' },
    );
  });
  it('ICMS60: retained ST, retained FCP-ST, effective ICMS', () => {
    expectGroup(
      { cst: '60', retained: { base: '80', rate: '18', fcp_rate: '2', effective: { rate: '18' } } },
      {
        retained: { vBCSTRet: '80.00', pST: '18.00', vICMSSTRet: '14.40' },
        fcpStRetained: { vBCFCPSTRet: '80.00', pFCPSTRet: '2.00', vFCPSTRet: '1.60' },
        effective: { pRedBCEfet: '0.00', vBCEfet: '100.00', pICMSEfet: '18.00', vICMSEfet: '18.00' },
      },
    );
    expect(group({ cst: '60' })).toEqual({ group: 'ICMS60', orig: '0', CST: '60' });
  });
  it('ICMS61: monophasic retained earlier', () => {
    expectGroup({ cst: '61', monophasic: { ad_rem_rate: '0.9' } }, { qBCMonoRet: '10.0000', adRemICMSRet: '0.90', vICMSMonoRet: '9.00' });
  });
  it('ICMS70: reduced own base and ST', () => {
    const icms70 = group({ cst: '70', rate: '18', base_reduction: '10', st: { margin: '30', rate: '18' } });
    expect(icms70.group).toBe('ICMS70');
    expect(icms70).toMatchObject({ pRedBC: '10.00', vBC: '90.00', vICMS: '16.20', st: { vBCST: '130.00', vICMSST: '7.20' } });
  });
  it('ICMS90: own part, ST on the operation value, computed relief', () => {
    expectGroup(
      { cst: '90', rate: '18', base_reduction: '50', st: { base_mode: '6', rate: '18' }, relief: { reason: '9' } },
      {
        own: { modBC: '3', vBC: '50.00', pRedBC: '50.00', pICMS: '18.00', vICMS: '9.00' },
        st: { modBCST: '6', vBCST: '100.00', pICMSST: '18.00', vICMSST: '9.00' },
        deson: { vICMSDeson: '9.00', motDesICMS: '9' },
      },
    );
    expect(group({ cst: '90' })).toEqual({ group: 'ICMS90', orig: '0', CST: '90' });
  });
  it('ICMSPart (CST 10 / 90 with partition)', () => {
    expect(
      group({ cst: '10', rate: '12', partition: { operation_base_rate: '100', st_state: 'MG' }, st: { margin: '40', rate: '18' } }),
    ).toEqual({
      group: 'ICMSPart',
      orig: '0',
      CST: '10',
      modBC: '3',
      vBC: '100.00',
      pICMS: '12.00',
      vICMS: '12.00',
      st: { modBCST: '4', pMVAST: '40.00', vBCST: '140.00', pICMSST: '18.00', vICMSST: '13.20' },
      pBCOp: '100.00',
      UFST: 'MG',
    });
  });
  it('ICMSST (CST 41 / 60 with st_transfer)', () => {
    expect(
      group({ cst: '41', retained: { base: '80', rate: '18' }, st_transfer: { destination_base: '80', destination_rate: '12' } }),
    ).toEqual({
      group: 'ICMSST',
      orig: '0',
      CST: '41',
      retained: { vBCSTRet: '80.00', pST: '18.00', vICMSSTRet: '14.40' },
      vBCSTDest: '80.00',
      vICMSSTDest: '9.60',
    });
    expect(
      group({
        cst: '60',
        retained: { base: '80', rate: '18', amount: '14.41' },
        st_transfer: { destination_base: '80', destination_rate: '12' },
      }),
    ).toMatchObject({ group: 'ICMSST', CST: '60', retained: { vICMSSTRet: '14.41' } });
  });
});

describe('ICMS groups (CSOSN)', () => {
  it('ICMSSN101: credit on the item total', () => {
    expect(group({ csosn: '101', credit_rate: '2.56' })).toEqual({
      group: 'ICMSSN101',
      orig: '0',
      CSOSN: '101',
      pCredSN: '2.56',
      vCredICMSSN: '2.56',
    });
  });
  it('ICMSSN102 for 102, 103, 300, 400', () => {
    for (const csosn of ['102', '103', '300', '400']) expect(group({ csosn })).toEqual({ group: 'ICMSSN102', orig: '0', CSOSN: csosn });
  });
  it('ICMSSN201: ST minus own ICMS at `rate`, and credit', () => {
    const st = { modBCST: '4', pMVAST: '40.00', vBCST: '140.00', pICMSST: '18.00', vICMSST: '13.20' };
    const expected = { group: 'ICMSSN201', orig: '0', CSOSN: '201', st, pCredSN: '1.25', vCredICMSSN: '1.25' };
    expect(group({ csosn: '201', rate: '12', credit_rate: '1.25', st: { margin: '40', rate: '18' } })).toEqual(expected);
  });
  it('ICMSSN202 for 202 and 203', () => {
    expect(group({ csosn: '203', st: { margin: '40', rate: '18' } })).toMatchObject({
      group: 'ICMSSN202',
      CSOSN: '203',
      st: { vICMSST: '25.20' },
    });
    expect(group({ csosn: '202', st: { base_mode: '5', base: '150', rate: '18' } })).toMatchObject({
      group: 'ICMSSN202',
      st: { modBCST: '5', vBCST: '150.00', vICMSST: '27.00' },
    });
  });
  it('ICMSSN500: retained ST', () => {
    expect(group({ csosn: '500', retained: { base: '80', rate: '18' } })).toEqual({
      group: 'ICMSSN500',
      orig: '0',
      CSOSN: '500',
      retained: { vBCSTRet: '80.00', pST: '18.00', vICMSSTRet: '14.40' },
    });
  });
  it('ICMSSN900: own ICMS and credit', () => {
    expect(group({ csosn: '900', rate: '18', credit_rate: '3' })).toEqual({
      group: 'ICMSSN900',
      orig: '0',
      CSOSN: '900',
      own: { modBC: '3', vBC: '100.00', pICMS: '18.00', vICMS: '18.00' },
      credit: { pCredSN: '3.00', vCredICMSSN: '3.00' },
    });
  });
});

describe('ICMSUFDest (DIFAL)', () => {
  it('destination rate minus interstate rate on the operation base, FCP of the destination', () => {
    const body = sampleNfeRequest({
      client_name: 'Maria',
      tax_id: '12345678909',
      recipient_address: SAMPLE_RJ_ADDRESS,
      items: [
        sampleNfeItem({
          quantity: '10',
          unit_price: '10',
          cfop: '6102',
          tax: {
            icms: { cst: '00', origin: '0', rate: '12' },
            icms_destination: { rate: '20', interstate_rate: '12', fcp_rate: '2' },
            ipi: { cst: '50', rate: '10' },
            pis: { cst: '07' },
            cofins: { cst: '07' },
          },
        }),
      ],
    });
    const r = validateInvoiceRequest(body, sampleIssuer('normal'), { now: NOW });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const t = computeItemTaxes(r.value.items[0]!, r.value.finalConsumer);
    // base = 100.00 + IPI 10.00 = 110.00; 22.00 − 13.20 = 8.80; FCP 2.20
    expect(t.imposto.ICMSUFDest).toEqual({
      vBCUFDest: '110.00',
      vBCFCPUFDest: '110.00',
      pFCPUFDest: '2.00',
      pICMSUFDest: '20.00',
      pICMSInter: '12.00',
      pICMSInterPart: '100.00',
      vFCPUFDest: '2.20',
      vICMSUFDest: '8.80',
      vICMSUFRemet: '0.00',
    });
    expect(computeTotals(r.value.items, [t]).ICMSTot).toMatchObject({
      vFCPUFDest: '2.20',
      vICMSUFDest: '8.80',
      vICMSUFRemet: '0.00',
      vNF: '110.00',
    });
  });
});
