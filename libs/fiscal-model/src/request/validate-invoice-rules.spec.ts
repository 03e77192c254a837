import { sampleIssuer, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import type { FieldError } from './field-error.js';
import { validateInvoiceRequest } from './validate-invoice-request.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const normal = sampleIssuer('normal');
const simples = sampleIssuer('simples_nacional');

function result(body: unknown, iss = normal, now = NOW) {
  return validateInvoiceRequest(body, iss, { now });
}
function firstError(body: unknown, iss = normal, now = NOW): Pick<FieldError, 'code' | 'field'> {
  const r = result(body, iss, now);
  if (r.ok) throw new Error('expected a failure');
  return { code: r.errors[0]!.code, field: r.errors[0]!.field };
}
function valid(body: unknown, iss = normal) {
  const r = result(body, iss);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const baseItem = () => (sampleNfeRequest().items as Record<string, unknown>[])[0]!;
const withBuyer = (buyer: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  sampleNfeRequest({ buyer: { ...(sampleNfeRequest().buyer as object), ...buyer }, ...top });
const address = (a: Record<string, unknown>) => ({ street: 'Rua X', number: '1', district: 'Centro', ...a });
const withProduct = (br: Record<string, unknown>) => sampleNfeRequest({ items: [{ ...baseItem(), product: { br: { ncm: '61091000', cfop: '5102', ...br } } }] });

describe('buyer rules', () => {
  it('TAX_ID_INVALID for a wrong shape; CPF/CNPJ decided by length; alphanumeric CNPJ accepted', () => {
    expect(firstError(withBuyer({ tax_id: '1234567890' }))).toEqual({ code: 'TAX_ID_INVALID', field: 'buyer.tax_id' });
    expect(firstError(withBuyer({ tax_id: '1234567890A' }))).toEqual({ code: 'TAX_ID_INVALID', field: 'buyer.tax_id' });
    expect(valid(withBuyer({ tax_id: '12.ABC.345/01DE-35' })).buyer.taxId).toEqual({ kind: 'cnpj', value: '12ABC34501DE35' });
    expect(valid(withBuyer({ tax_id: '123.456.789-00' })).buyer.taxId).toEqual({ kind: 'cpf', value: '12345678900' });
  });
  it('FIELD_REQUIRED without a tax id for a Brazilian buyer', () => {
    expect(firstError(withBuyer({ tax_id: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: 'buyer.tax_id' });
  });
  it('ADDRESS_REQUIRED on NF-e, optional on NFS-e', () => {
    expect(firstError(withBuyer({ address: undefined }))).toEqual({ code: 'ADDRESS_REQUIRED', field: 'buyer.address' });
    expect(valid(sampleNfseRequest()).buyer.address).toBeUndefined();
  });
  it('CITY_CODE_UNKNOWN, STATE_CITY_MISMATCH and missing address parts', () => {
    expect(firstError(withBuyer({ address: address({ city_code: '3550309', state: 'SP', postal_code: '01000000' }) }))).toEqual({ code: 'CITY_CODE_UNKNOWN', field: 'buyer.address.city_code' });
    expect(firstError(withBuyer({ address: address({ city_code: '3550308', state: 'RJ', postal_code: '01000000' }) }))).toEqual({ code: 'STATE_CITY_MISMATCH', field: 'buyer.address.state' });
    expect(firstError(withBuyer({ address: address({ city_code: '3550308', state: 'SP' }) }))).toEqual({ code: 'FIELD_REQUIRED', field: 'buyer.address.postal_code' });
    expect(firstError(withBuyer({ address: address({ city_code: '355030', state: 'SP', postal_code: '01000000' }) }))).toEqual({ code: 'FIELD_INVALID', field: 'buyer.address.city_code' });
  });
  it('destination: internal, interstate, foreign', () => {
    expect(valid(sampleNfeRequest()).destination).toBe('internal');
    const rj = withBuyer({ address: address({ city_code: '3304557', state: 'RJ', postal_code: '20000000' }) }, {});
    expect(firstError(rj)).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
    const rj6 = { ...rj, items: [{ ...baseItem(), product: { br: { ncm: '61091000', cfop: '6102' } } }] };
    // a CPF buyer in another state: the DIFAL case
    expect(firstError(rj6)).toEqual({ code: 'TAX_FIELD_REQUIRED', field: 'items[0].tax.icms_destination' });
    const item = baseItem();
    const difal = { ...rj6, items: [{ ...item, product: { br: { ncm: '61091000', cfop: '6102' } }, tax: { ...(item.tax as object), icms_destination: { rate: '20', interstate_rate: '12' } } }] };
    expect(valid(difal).destination).toBe('interstate');
    // Simples Nacional: allowed, not required; internal sale: not applicable
    const simplesTax = { icms: { csosn: '102', origin: '0' }, pis: { cst: '49', rate: '0' }, cofins: { cst: '49', rate: '0' } };
    expect(result({ ...rj6, items: [{ ...item, product: { br: { ncm: '61091000', cfop: '6102' } }, tax: simplesTax }] }, simples).ok).toBe(true);
    expect(firstError(sampleNfeRequest({ items: [{ ...item, tax: { ...(item.tax as object), icms_destination: { rate: '20', interstate_rate: '12' } } }] }))).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE', field: 'items[0].tax.icms_destination',
    });
    const foreign = withBuyer({ tax_id: 'PT123456789', address: address({ country_code: 'PT', bacen_country_code: '6076', city_name: 'Lisboa' }) });
    const foreign7 = { ...foreign, items: [{ ...baseItem(), product: { br: { ncm: '61091000', cfop: '7102' } } }] };
    const v = valid(foreign7);
    expect(v.destination).toBe('foreign');
    expect(v.buyer).toMatchObject({ foreign: true, foreignId: 'PT123456789', address: { cityCode: '9999999', state: 'EX', cityName: 'EXTERIOR', bacenCountryCode: '6076' } });
    expect(v.finalConsumer).toBe(false);
    expect(firstError({ ...foreign7, buyer: { ...(foreign.buyer as object), tax_id: 'PT12' } })).toEqual({ code: 'TAX_ID_INVALID', field: 'buyer.tax_id' });
    expect(firstError(withBuyer({ address: address({ country_code: 'PT' }) }))).toEqual({ code: 'FIELD_REQUIRED', field: 'buyer.address.bacen_country_code' });
    expect(firstError(withBuyer({ address: address({ country_code: 'ZZ', bacen_country_code: '1' }) }))).toEqual({ code: 'FIELD_INVALID', field: 'buyer.address.bacen_country_code' });
  });
  it('final consumer: default true for CPF / no IE; false refused without IE (rejection 696)', () => {
    expect(valid(sampleNfeRequest()).finalConsumer).toBe(true);
    expect(valid(withBuyer({ tax_id: '11222333000181', state_registration: '110042490114' })).finalConsumer).toBe(false);
    expect(firstError(sampleNfeRequest({ final_consumer: false }))).toEqual({ code: 'FINAL_CONSUMER_REQUIRED', field: 'final_consumer' });
  });
});

describe('NF-e product rules', () => {
  it('PRODUCT_REQUIRED without product.br', () => {
    expect(firstError(sampleNfeRequest({ items: [{ ...baseItem(), product: undefined }] }))).toEqual({ code: 'PRODUCT_REQUIRED', field: 'items[0].product.br' });
  });
  it('NCM 8 digits, CFOP 4 digits, CEST 7 digits', () => {
    expect(firstError(withProduct({ ncm: '6109100' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.ncm' });
    expect(firstError(withProduct({ cfop: '510' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.cfop' });
    expect(firstError(withProduct({ cest: '123456' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.cest' });
  });
  it('CFOP_DESTINATION_MISMATCH for 6xxx/7xxx inside the state', () => {
    expect(firstError(withProduct({ cfop: '6102' }))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
    expect(firstError(withProduct({ cfop: '7102' }))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
  });
  it('GTIN_CHECK_DIGIT_INVALID; omitted → SEM GTIN', () => {
    expect(firstError(withProduct({ gtin: '7891000315508' }))).toEqual({ code: 'GTIN_CHECK_DIGIT_INVALID', field: 'items[0].product.br.gtin' });
    expect(firstError(withProduct({ gtin: '96385075' }))).toEqual({ code: 'GTIN_CHECK_DIGIT_INVALID', field: 'items[0].product.br.gtin' });
    expect(firstError(withProduct({ gtin: '123' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.gtin' });
    expect(valid(withProduct({})).items[0]!.product!.gtin).toBe('SEM GTIN');
    expect(valid(withProduct({ gtin: '96385074' })).items[0]!.product!.gtin).toBe('96385074');
  });
  it('TAX_REQUIRED on NF-e; service_code not applicable', () => {
    expect(firstError(sampleNfeRequest({ items: [{ ...baseItem(), tax: undefined }] }))).toEqual({ code: 'TAX_REQUIRED', field: 'items[0].tax' });
    expect(firstError(sampleNfeRequest({ items: [{ ...baseItem(), service_code: '1.07' }] }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'items[0].service_code' });
  });
  it('REFERENCE_REQUIRED for complementary and return', () => {
    expect(firstError(sampleNfeRequest({ purpose: 'return' }))).toEqual({ code: 'REFERENCE_REQUIRED', field: 'referenced_keys' });
    expect(valid(sampleNfeRequest({ purpose: 'return', referenced_keys: ['35180834128745000152550010000474281920007498'] })).referencedKeys).toHaveLength(1);
  });
});

describe('IBS/CBS requirement', () => {
  const noIbs = () => sampleNfeRequest({ items: [{ ...baseItem(), ibs_cbs: undefined }] });
  it('IBS_CBS_REQUIRED for CRT 3 from 2026', () => {
    expect(firstError(noIbs())).toEqual({ code: 'IBS_CBS_REQUIRED', field: 'items[0].ibs_cbs' });
  });
  it('not required before 2026 (issuer local time) nor outside the normal regime', () => {
    expect(result(noIbs(), normal, new Date('2026-01-01T02:59:59Z')).ok).toBe(true); // still 2025 in São Paulo
    expect(result(noIbs(), normal, new Date('2026-01-01T03:00:00Z')).ok).toBe(false);
    const simplesBody = sampleNfeRequest({ items: [{ ...baseItem(), ibs_cbs: undefined, tax: { icms: { csosn: '102', origin: '0' }, pis: { cst: '49', rate: '0' }, cofins: { cst: '49', rate: '0' } } }] });
    expect(result(simplesBody, simples).ok).toBe(true);
  });
  it('rates: ≤ 4 places, ≤ 100', () => {
    const ibs = (x: Record<string, unknown>) => sampleNfeRequest({ items: [{ ...baseItem(), ibs_cbs: { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9', ...x } }] });
    expect(firstError(ibs({ rate_state: '0.12345' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].ibs_cbs.rate_state' });
    expect(firstError(ibs({ rate_federal: '100.01' }))).toEqual({ code: 'FIELD_OUT_OF_RANGE', field: 'items[0].ibs_cbs.rate_federal' });
    expect(firstError(ibs({ cst: '00' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].ibs_cbs.cst' });
  });
});

describe('NFS-e rules', () => {
  const service = (x: Record<string, unknown>) => ({ description: 'Servico', quantity: 1, amount: '100', ...x });
  it('SERVICE_CODES_MIXED when items carry different service codes', () => {
    const body = sampleNfseRequest({ items: [service({ service_code: '1.07' }), service({ service_code: '17.01' })] });
    expect(firstError(body, simples)).toEqual({ code: 'SERVICE_CODES_MIXED', field: 'items[1].service_code' });
  });
  it('same service in different spellings combines; default from the company', () => {
    const v = valid(sampleNfseRequest({ items: [service({ service_code: '1.07' }), service({ service_code: '010701' }), service({})] }), sampleIssuer('simples_nacional'));
    expect(v.items.map((i) => i.serviceCode)).toEqual(['010701', '010701', '010701']);
  });
  it('SERVICE_CODE_REQUIRED and SERVICE_CODE_UNKNOWN', () => {
    const noDefault = sampleIssuer('simples_nacional', { defaultServiceCode: undefined });
    expect(firstError(sampleNfseRequest({ items: [service({})] }), noDefault)).toEqual({ code: 'SERVICE_CODE_REQUIRED', field: 'items[0].service_code' });
    expect(firstError(sampleNfseRequest({ items: [service({ service_code: '99.99' })] }), noDefault)).toEqual({ code: 'SERVICE_CODE_UNKNOWN', field: 'items[0].service_code' });
  });
  it('TAX_ID_INVALID for an alphanumeric CNPJ (DPS v1.01 is numeric only)', () => {
    expect(firstError(sampleNfseRequest({ buyer: { tax_id: '12ABC34501DE35', name: 'X' } }), simples)).toEqual({ code: 'TAX_ID_INVALID', field: 'buyer.tax_id' });
  });
  it('ignores product.br, refuses NF-e-only fields', () => {
    expect(valid(sampleNfseRequest({ items: [service({ product: { br: { ncm: '1', cfop: '9' } } })] }), simples).items[0]!.product).toBeUndefined();
    expect(firstError(sampleNfseRequest({ contingency: true }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'contingency' });
    expect(firstError(sampleNfseRequest({ payment: [{ method: 'pix' }] }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'payment' });
  });
  it('one IBS/CBS classification per DPS', () => {
    const ibs = { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' };
    const body = sampleNfseRequest({ items: [service({ ibs_cbs: ibs }), service({ ibs_cbs: { ...ibs, classification: '000002' } })] });
    expect(firstError(body)).toEqual({ code: 'FIELD_INVALID', field: 'items[1].ibs_cbs' });
  });
});

describe('payments (NF-e)', () => {
  it('default: the total as "other" for a sale, "none" for adjustment and return', () => {
    expect(valid(sampleNfeRequest()).payments).toEqual([{ method: 'other', code: '99', amount: '99.80', description: 'Nao informado' }]);
    expect(valid(sampleNfeRequest({ purpose: 'adjustment' })).payments).toEqual([{ method: 'none', code: '90', amount: '0.00' }]);
  });
  it('a single payment without amount takes the total', () => {
    expect(valid(sampleNfeRequest({ payment: [{ method: 'pix' }] })).payments).toEqual([{ method: 'pix', code: '17', amount: '99.80' }]);
  });
  it('PAYMENT_TOTAL_INSUFFICIENT, FIELD_REQUIRED with several payments', () => {
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '99.79' }] }))).toEqual({ code: 'PAYMENT_TOTAL_INSUFFICIENT', field: 'payment' });
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '50' }, { method: 'pix' }] }))).toEqual({ code: 'FIELD_REQUIRED', field: 'payment[1].amount' });
    expect(valid(sampleNfeRequest({ payment: [{ method: 'cash', amount: '50' }, { method: 'pix', amount: '60' }] })).payments).toHaveLength(2);
  });
  it('"none" stands alone with amount 0', () => {
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'none', amount: '1' }] }))).toEqual({ code: 'FIELD_INVALID', field: 'payment[0].amount' });
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'none' }, { method: 'cash', amount: '200' }] }))).toEqual({ code: 'FIELD_INVALID', field: 'payment[0].method' });
  });
  it('FIELD_PRECISION_UNSUPPORTED outside items', () => {
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '100.001' }] }))).toEqual({ code: 'FIELD_PRECISION_UNSUPPORTED', field: 'payment[0].amount' });
  });
});
