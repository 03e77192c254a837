// Tax rule errors (codes and fields) and the IPI / PIS / COFINS groups.
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';
import { sampleIssuer, sampleNfeItem, sampleNfeRequest } from '../testing/samples.js';
import { computeItemTaxes } from './compute-item-taxes.js';

const NOW = new Date('2026-03-10T15:00:00Z');
function run(tax: Record<string, unknown>, regime: 'normal' | 'simples_nacional' | 'mei' | 'simples_nacional_excess' = 'normal') {
  const body = sampleNfeRequest({
    items: [sampleNfeItem({ quantity: '10', unit_price: '10', tax: { pis: { cst: '07' }, cofins: { cst: '07' }, ...tax } })],
  });
  return validateInvoiceRequest(body, sampleIssuer(regime), { now: NOW });
}
function firstError(tax: Record<string, unknown>, regime?: Parameters<typeof run>[1]) {
  const r = run(tax, regime);
  if (r.ok) throw new Error('expected a failure');
  return { code: r.errors[0]!.code, field: r.errors[0]!.field };
}
function imposto(tax: Record<string, unknown>) {
  const r = run(tax);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return computeItemTaxes(r.value.items[0]!, r.value.finalConsumer).imposto;
}
const icms00 = { cst: '00', origin: '0', rate: '18' };

describe('tax rules', () => {
  it('TAX_CODE_REGIME_MISMATCH: CST for CRT 1/4, CSOSN for CRT 2/3', () => {
    expect(firstError({ icms: icms00 }, 'simples_nacional')).toEqual({
      code: 'TAX_CODE_REGIME_MISMATCH',
      field: 'items[0].product.br.tax.icms.cst',
    });
    expect(firstError({ icms: icms00 }, 'mei')).toEqual({ code: 'TAX_CODE_REGIME_MISMATCH', field: 'items[0].product.br.tax.icms.cst' });
    expect(firstError({ icms: { csosn: '102', origin: '0' } })).toEqual({
      code: 'TAX_CODE_REGIME_MISMATCH',
      field: 'items[0].product.br.tax.icms.csosn',
    });
    expect(run({ icms: icms00 }, 'simples_nacional_excess').ok).toBe(true);
  });
  it('TAX_FIELD_REQUIRED: missing code, origin, per-code fields', () => {
    expect(firstError({ icms: { origin: '0' } })).toEqual({ code: 'TAX_FIELD_REQUIRED', field: 'items[0].product.br.tax.icms.cst' });
    expect(firstError({ icms: { cst: '00', rate: '18' } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.origin',
    });
    expect(firstError({ icms: { cst: '00', origin: '0' } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.rate',
    });
    expect(firstError({ icms: { cst: '20', origin: '0', rate: '18' } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.base_reduction',
    });
    expect(firstError({ icms: { cst: '10', origin: '0', rate: '18', st: { rate: '18' } } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.st.margin',
    });
    expect(firstError({ icms: { cst: '10', origin: '0', rate: '18', st: { base_mode: '0', rate: '18' } } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.st.base',
    });
    expect(firstError({ icms: { cst: '40', origin: '0', relief: { reason: '7' } } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.relief.rate',
    });
    expect(firstError({ icms: { cst: '60', origin: '0', st_transfer: { destination_base: '1', destination_rate: '1' } } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.retained',
    });
    expect(firstError({ icms: { cst: '15', origin: '0', monophasic: { ad_rem_rate: '1' } } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.monophasic.retained_ad_rem_rate',
    });
    expect(firstError({ icms: { csosn: '101', origin: '0' } }, 'simples_nacional')).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms.credit_rate',
    });
  });
  it('origin may come from product.br.origin', () => {
    const body = sampleNfeRequest({
      items: [
        sampleNfeItem({
          unit_price: '10',
          br: { origin: '2' },
          tax: { icms: { cst: '00', rate: '18' }, pis: { cst: '07' }, cofins: { cst: '07' } },
        }),
      ],
    });
    const r = validateInvoiceRequest(body, sampleIssuer('normal'), { now: NOW });
    expect(r.ok && r.value.items[0]!.tax!.icms.origin).toBe('2');
  });
  it('TAX_FIELD_NOT_APPLICABLE: fields the code does not take', () => {
    expect(firstError({ icms: { ...icms00, st: { margin: '40', rate: '18' } } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms.st',
    });
    expect(firstError({ icms: { ...icms00, credit_rate: '1' } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms.credit_rate',
    });
    expect(firstError({ icms: { cst: '10', origin: '0', rate: '12', base_reduction: '5', st: { margin: '1', rate: '18' } } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms.base_reduction',
    });
    expect(firstError({ icms: { cst: '00', csosn: '102', origin: '0', rate: '1' } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms.csosn',
    });
    expect(firstError({ icms: { cst: '02', origin: '0', monophasic: { ad_rem_rate: '1', deferral_rate: '1' } } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms.monophasic.deferral_rate',
    });
    expect(firstError({ icms: icms00, ipi: { cst: '53', rate: '5' } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.ipi.rate',
    });
    expect(firstError({ icms: icms00, pis: { cst: '07', rate: '1' } })).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.pis.rate',
    });
  });
  it('relief reasons per group; rate precision and bounds', () => {
    expect(firstError({ icms: { cst: '20', origin: '0', rate: '18', base_reduction: '10', relief: { reason: '7' } } })).toEqual({
      code: 'FIELD_INVALID',
      field: 'items[0].product.br.tax.icms.relief.reason',
    });
    expect(firstError({ icms: { ...icms00, rate: '18.00001' } })).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.br.tax.icms.rate',
    });
    expect(firstError({ icms: { ...icms00, rate: '101' } })).toEqual({
      code: 'FIELD_OUT_OF_RANGE',
      field: 'items[0].product.br.tax.icms.rate',
    });
    expect(run({ icms: { cst: '10', origin: '0', rate: '12', st: { margin: '150', rate: '18' } } }).ok).toBe(true);
  });
  it('PIS / COFINS: code families', () => {
    expect(firstError({ icms: icms00, pis: { cst: '01' } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.pis.rate',
    });
    expect(firstError({ icms: icms00, cofins: { cst: '03' } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.cofins.quantity_rate',
    });
    expect(firstError({ icms: icms00, pis: { cst: '10' } })).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.tax.pis.cst' });
    expect(firstError({ icms: icms00, pis: { cst: '99' } })).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.pis.rate',
    });
  });
});

describe('IPI, PIS and COFINS groups', () => {
  it('IPI taxed by rate and by unit, not taxed; framing code default 999', () => {
    expect(imposto({ icms: icms00, ipi: { cst: '50', unit_amount: '0.35', framing_code: '123' } }).IPI).toEqual({
      group: 'IPITrib',
      cEnq: '123',
      CST: '50',
      qUnid: '10.0000',
      vUnid: '0.3500',
      vIPI: '3.50',
    });
    expect(imposto({ icms: icms00, ipi: { cst: '53' } }).IPI).toEqual({ group: 'IPINT', cEnq: '999', CST: '53' });
  });
  it('PIS/COFINS by rate, quantity, not taxed, other', () => {
    const i = imposto({ icms: icms00, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '03', quantity_rate: '0.1234' } });
    expect(i.PIS).toEqual({ group: 'Aliq', CST: '01', vBC: '100.00', p: '1.65', v: '1.65' });
    expect(i.COFINS).toEqual({ group: 'Qtde', CST: '03', qBCProd: '10.0000', vAliqProd: '0.1234', v: '1.23' });
    expect(imposto({ icms: icms00 }).PIS).toEqual({ group: 'NT', CST: '07' });
    const o = imposto({ icms: icms00, pis: { cst: '99', rate: '0.65', base: '82.00' }, cofins: { cst: '49', quantity_rate: '1' } });
    expect(o.PIS).toEqual({ group: 'Outr', CST: '99', vBC: '82.00', p: '0.65', v: '0.53' });
    expect(o.COFINS).toEqual({ group: 'Outr', CST: '49', qBCProd: '10.0000', vAliqProd: '1.0000', v: '10.00' });
  });
});
