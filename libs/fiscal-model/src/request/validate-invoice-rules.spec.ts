import { SAMPLE_IBS_CBS, SAMPLE_RJ_ADDRESS, sampleIssuer, sampleNfeItem, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import type { FieldError } from './field-error.js';
import { validateInvoiceRequest } from './validate-invoice-request.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const normal = sampleIssuer('normal');
const simples = sampleIssuer('simples_nacional');

function result(body: unknown, iss = normal, now = NOW) {
  return validateInvoiceRequest(body, iss, { now });
}
function errors(body: unknown, iss = normal): FieldError[] {
  const r = result(body, iss);
  if (r.ok) throw new Error('expected a failure');
  return r.errors;
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
const SP = {
  street: 'Rua X',
  number: '1',
  neighborhood: 'Centro',
  city: 'Sao Paulo',
  state: 'SP',
  zip_code: '01000000',
  city_code: '3550308',
};
const RJ = SAMPLE_RJ_ADDRESS;
const withAddress = (address: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  sampleNfeRequest({ recipient_address: address, ...top });
const withBr = (br: Record<string, unknown>) => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', br })] });
const withProduct = (product: Record<string, unknown>) => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', product })] });
const service = (x: Record<string, unknown> = {}) => ({ description: 'Servico', amount: '100', ...x });

describe('recipient: client_name, tax_id (SPEC.md "Invoice request")', () => {
  it('tax_id: the length decides (11 CPF, 14 CNPJ), alphanumeric CNPJ accepted, shape only', () => {
    expect(valid(sampleNfeRequest({ tax_id: '12345678909' })).buyer.taxId).toEqual({ kind: 'cpf', value: '12345678909' });
    expect(valid(sampleNfeRequest({ tax_id: '11222333000181' })).buyer.taxId).toEqual({ kind: 'cnpj', value: '11222333000181' });
    expect(valid(sampleNfeRequest({ tax_id: '12ABC34501DE35' })).buyer.taxId).toEqual({ kind: 'cnpj', value: '12ABC34501DE35' });
    // no check-digit rule: a CPF with "wrong" check digits has the right shape
    expect(valid(sampleNfeRequest({ tax_id: '12345678900' })).buyer.taxId).toEqual({ kind: 'cpf', value: '12345678900' });
  });
  it('TAX_ID_INVALID for any other length or shape, punctuation included', () => {
    for (const taxId of [
      '1234567890',
      '123456789012',
      '1234567890A',
      '12ABC34501DE3X',
      '123.456.789-09',
      '12.ABC.345/01DE-35',
      '12abc34501de35',
      '',
    ]) {
      expect(firstError(sampleNfeRequest({ tax_id: taxId }))).toEqual({ code: 'TAX_ID_INVALID', field: 'tax_id' });
    }
  });
  it('client_name: 1–120 for the request; an NF-e carries 2–60 (dest/xNome), refused with document type and limit, never cut', () => {
    const [long] = errors(sampleNfeRequest({ client_name: 'A'.repeat(61) }));
    expect(long).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'client_name',
      message: expect.stringMatching(/NF-e.*dest\/xNome.*2 to 60.*nfe/),
      expected: '2–60 characters for nfe',
      received: 'A'.repeat(61),
    });
    expect(firstError(sampleNfeRequest({ client_name: 'A' }))).toEqual({ code: 'FIELD_INVALID', field: 'client_name' });
    expect(valid(sampleNfeRequest({ client_name: 'A'.repeat(60) })).buyer.name).toHaveLength(60);
    // the DPS's toma/xNome holds 1–300: the whole 120 and a single character go through
    expect(valid(sampleNfseRequest({ client_name: 'B'.repeat(120) })).buyer.name).toHaveLength(120);
    expect(valid(sampleNfseRequest({ client_name: 'B' })).buyer.name).toBe('B');
  });
  it('additive client_state_registration, client_email, client_phone', () => {
    const v = valid(sampleNfeRequest({ tax_id: '11222333000181', client_state_registration: '110042490114', client_phone: '1133334444' }));
    expect(v.buyer).toMatchObject({ stateRegistration: '110042490114', email: 'maria@example.com', phone: '1133334444' });
    expect(v.finalConsumer).toBe(false);
    expect(firstError(sampleNfeRequest({ client_state_registration: 'X1' }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'client_state_registration',
    });
    expect(firstError(sampleNfeRequest({ client_email: 'not-an-email' }))).toEqual({ code: 'FIELD_INVALID', field: 'client_email' });
  });
  it('final consumer: default true for CPF / no IE; false refused without IE (rejection 696)', () => {
    expect(valid(sampleNfeRequest()).finalConsumer).toBe(true);
    expect(firstError(sampleNfeRequest({ final_consumer: false }))).toEqual({ code: 'FINAL_CONSUMER_REQUIRED', field: 'final_consumer' });
  });
});

describe('recipient_address (SPEC.md "Address")', () => {
  it('reads street, number, neighborhood, state, zip_code, city_code; the code decides the city', () => {
    const v = valid(withAddress({ ...SP, city: 'Sampa', complement: 'Apto 2' }));
    expect(v.buyer.address).toEqual({
      street: 'Rua X',
      number: '1',
      complement: 'Apto 2',
      district: 'Centro',
      cityCode: '3550308',
      cityName: 'São Paulo',
      state: 'SP',
      postalCode: '01000000',
      countryCode: 'BR',
      bacenCountryCode: '1058',
    });
  });
  it('ADDRESS_REQUIRED on NF-e, optional on NFS-e', () => {
    expect(firstError(sampleNfeRequest({ recipient_address: undefined }))).toEqual({
      code: 'ADDRESS_REQUIRED',
      field: 'recipient_address',
    });
    expect(valid(sampleNfseRequest()).buyer.address).toBeUndefined();
    expect(valid(sampleNfseRequest({ recipient_address: RJ })).buyer.address).toMatchObject({ cityCode: '3304557', district: 'Catete' });
  });
  it('every field of a Brazilian address is required; "S/N" is the number when there is none', () => {
    for (const key of ['street', 'number', 'neighborhood', 'city']) {
      expect(firstError(withAddress({ ...SP, [key]: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: `recipient_address.${key}` });
    }
    for (const key of ['state', 'zip_code', 'city_code']) {
      expect(firstError(withAddress({ ...SP, [key]: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: `recipient_address.${key}` });
      expect(firstError(sampleNfseRequest({ recipient_address: { ...RJ, [key]: undefined } }))).toEqual({
        code: 'FIELD_REQUIRED',
        field: `recipient_address.${key}`,
      });
    }
    expect(valid(withAddress({ ...SP, number: 'S/N' })).buyer.address!.number).toBe('S/N');
  });
  it('formats: zip_code 8 digits without hyphen, city_code 7 digits, state 2 letters', () => {
    expect(firstError(withAddress({ ...SP, zip_code: '01000-000' }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'recipient_address.zip_code',
    });
    expect(firstError(withAddress({ ...SP, city_code: '355030' }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'recipient_address.city_code',
    });
    expect(firstError(withAddress({ ...SP, state: 'São Paulo' }))).toEqual({ code: 'FIELD_INVALID', field: 'recipient_address.state' });
  });
  it('CITY_CODE_UNKNOWN and STATE_CITY_MISMATCH: a wrong code is refused even with the right name', () => {
    expect(firstError(withAddress({ ...SP, city_code: '3550309' }))).toEqual({
      code: 'CITY_CODE_UNKNOWN',
      field: 'recipient_address.city_code',
    });
    expect(firstError(withAddress({ ...SP, state: 'RJ' }))).toEqual({ code: 'STATE_CITY_MISMATCH', field: 'recipient_address.state' });
  });
  it('NF-e layout limits on the address: xLgr and xBairro 2–60', () => {
    const [e] = errors(withAddress({ ...SP, neighborhood: 'C' }));
    expect(e).toMatchObject({ code: 'FIELD_INVALID', field: 'recipient_address.neighborhood', expected: '2–60 characters for nfe' });
    expect(firstError(withAddress({ ...SP, street: 'R' }))).toEqual({ code: 'FIELD_INVALID', field: 'recipient_address.street' });
    expect(firstError(withAddress({ ...SP, street: 'R'.repeat(61) }))).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'recipient_address.street',
    });
    expect(valid(sampleNfseRequest({ recipient_address: { ...RJ, neighborhood: 'C' } })).buyer.address!.district).toBe('C');
  });
  it('destination: internal, interstate (CFOP 6, DIFAL for a CPF), foreign (additive country_code)', () => {
    expect(valid(sampleNfeRequest()).destination).toBe('internal');
    expect(firstError(withAddress(RJ))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
    expect(firstError(sampleNfeRequest({ recipient_address: RJ, items: [sampleNfeItem({ unit_price: '10', cfop: '6102' })] }))).toEqual({
      code: 'TAX_FIELD_REQUIRED',
      field: 'items[0].product.br.tax.icms_destination',
    });
    const difalTax = {
      icms: { cst: '00', origin: '0', rate: '12' },
      icms_destination: { rate: '20', interstate_rate: '12' },
      pis: { cst: '07' },
      cofins: { cst: '07' },
    };
    expect(
      valid(sampleNfeRequest({ recipient_address: RJ, items: [sampleNfeItem({ unit_price: '10', cfop: '6102', tax: difalTax })] }))
        .destination,
    ).toBe('interstate');
    expect(firstError(sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', tax: difalTax })] }))).toEqual({
      code: 'TAX_FIELD_NOT_APPLICABLE',
      field: 'items[0].product.br.tax.icms_destination',
    });
    const abroad = {
      street: 'Rua Augusta',
      number: '10',
      neighborhood: 'Baixa',
      city: 'Lisboa',
      country_code: 'PT',
      bacen_country_code: '6076',
    };
    const foreign = sampleNfeRequest({
      tax_id: 'PT123456789',
      recipient_address: abroad,
      items: [sampleNfeItem({ unit_price: '10', cfop: '7102' })],
    });
    const v = valid(foreign);
    expect(v.destination).toBe('foreign');
    expect(v.buyer).toMatchObject({
      foreign: true,
      foreignId: 'PT123456789',
      address: { cityCode: '9999999', state: 'EX', cityName: 'EXTERIOR', bacenCountryCode: '6076' },
    });
    expect(v.finalConsumer).toBe(false);
    expect(firstError({ ...foreign, tax_id: 'PT12' })).toEqual({ code: 'TAX_ID_INVALID', field: 'tax_id' });
    expect(firstError({ ...foreign, recipient_address: { ...abroad, bacen_country_code: undefined } })).toEqual({
      code: 'FIELD_REQUIRED',
      field: 'recipient_address.bacen_country_code',
    });
    expect(firstError({ ...foreign, recipient_address: { ...abroad, country_code: 'XX' } })).toEqual({
      code: 'FIELD_INVALID',
      field: 'recipient_address.country_code',
    });
  });
});

describe('NF-e items: product and product.br (SPEC.md "Item")', () => {
  it('PRODUCT_REQUIRED without product or product.br', () => {
    const item = sampleNfeItem({ unit_price: '10' });
    expect(firstError(sampleNfeRequest({ items: [{ ...item, product: undefined }] }))).toEqual({
      code: 'PRODUCT_REQUIRED',
      field: 'items[0].product',
    });
    expect(firstError(sampleNfeRequest({ items: [{ ...item, product: { quantity: '1', unit: 'UN' } }] }))).toEqual({
      code: 'PRODUCT_REQUIRED',
      field: 'items[0].product.br',
    });
  });
  it('NCM 8 digits, CFOP 4 digits, CEST 7 digits', () => {
    expect(firstError(withBr({ ncm: '6109100' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.ncm' });
    expect(firstError(withBr({ cfop: '510' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.cfop' });
    expect(firstError(withBr({ cest: '123456' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.cest' });
    expect(valid(withBr({ cest: '2806300' })).items[0]!.product!.cest).toBe('2806300');
  });
  it('CFOP_DESTINATION_MISMATCH for 6xxx/7xxx inside the state', () => {
    expect(firstError(withBr({ cfop: '6102' }))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
    expect(firstError(withBr({ cfop: '7102' }))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
  });
  it('product.barcode: GTIN check digit verified; omitted → SEM GTIN', () => {
    expect(firstError(withProduct({ barcode: '7891000315508' }))).toEqual({
      code: 'GTIN_CHECK_DIGIT_INVALID',
      field: 'items[0].product.barcode',
    });
    expect(firstError(withProduct({ barcode: '96385075' }))).toEqual({
      code: 'GTIN_CHECK_DIGIT_INVALID',
      field: 'items[0].product.barcode',
    });
    expect(firstError(withProduct({ barcode: '123' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.barcode' });
    expect(valid(withProduct({})).items[0]!.product!.gtin).toBe('SEM GTIN');
    expect(valid(withProduct({ barcode: 'SEM GTIN' })).items[0]!.product!.gtin).toBe('SEM GTIN');
    expect(valid(withProduct({ barcode: '96385074' })).items[0]!.product!.gtin).toBe('96385074');
  });
  it('product.br.manufacturer_cnpj: CNPJ shape, carried beside CEST', () => {
    expect(valid(withBr({ cest: '2806300', manufacturer_cnpj: '12ABC34501DE35' })).items[0]!.product).toMatchObject({
      manufacturerCnpj: '12ABC34501DE35',
    });
    expect(firstError(withBr({ cest: '2806300', manufacturer_cnpj: '112223330001' }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'items[0].product.br.manufacturer_cnpj',
    });
    expect(firstError(withBr({ manufacturer_cnpj: '11222333000181' }))).toEqual({
      code: 'FIELD_REQUIRED',
      field: 'items[0].product.br.cest',
    });
  });
  it('product.code (additive) → cProd, default the line number', () => {
    expect(valid(withProduct({ code: 'ABC' })).items[0]!.code).toBe('ABC');
    expect(valid(withProduct({})).items[0]!.code).toBe('1');
  });
  it('TAX_REQUIRED: product.br.tax on NF-e', () => {
    const item = sampleNfeItem({ unit_price: '10' });
    const product = item.product as { br: Record<string, unknown> };
    expect(firstError(sampleNfeRequest({ items: [{ ...item, product: { ...product, br: { ...product.br, tax: undefined } } }] }))).toEqual({
      code: 'TAX_REQUIRED',
      field: 'items[0].product.br.tax',
    });
  });
  it('NFS-e item fields on an NF-e are refused by name (FIELD_NOT_APPLICABLE)', () => {
    const item = sampleNfeItem({ unit_price: '10' });
    for (const [key, value] of [
      ['discount', '1'],
      ['service_code', '1.07'],
      ['tax_retained', true],
      ['observations', 'x'],
      ['ibs_cbs', SAMPLE_IBS_CBS],
    ] as const) {
      expect(firstError(sampleNfeRequest({ items: [{ ...item, [key]: value }] }))).toEqual({
        code: 'FIELD_NOT_APPLICABLE',
        field: `items[0].${key}`,
      });
    }
  });
  it('REFERENCE_REQUIRED for complementary and return', () => {
    expect(firstError(sampleNfeRequest({ purpose: 'return' }))).toEqual({ code: 'REFERENCE_REQUIRED', field: 'referenced_keys' });
    expect(
      valid(sampleNfeRequest({ purpose: 'return', referenced_keys: ['35180834128745000152550010000474281920007498'] })).referencedKeys,
    ).toHaveLength(1);
  });
});

describe('IBS/CBS group (SPEC.md "IbsCbs group")', () => {
  const noIbs = () => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', ibs_cbs: null })] });
  it('NF-e: at product.br.ibs_cbs; IBS_CBS_REQUIRED for CRT 3 from 2026', () => {
    expect(valid(sampleNfeRequest()).items[0]!.ibsCbs).toEqual(SAMPLE_IBS_CBS);
    expect(firstError(noIbs())).toEqual({ code: 'IBS_CBS_REQUIRED', field: 'items[0].product.br.ibs_cbs' });
  });
  it('not required before 2026 (issuer local time) nor outside the normal regime; an item without it emits nothing', () => {
    expect(result(noIbs(), normal, new Date('2026-01-01T02:59:59Z')).ok).toBe(true); // still 2025 in São Paulo
    expect(result(noIbs(), normal, new Date('2026-01-01T03:00:00Z')).ok).toBe(false);
    const simplesBody = sampleNfeRequest({
      items: [
        sampleNfeItem({
          unit_price: '10',
          ibs_cbs: null,
          tax: { icms: { csosn: '102', origin: '0' }, pis: { cst: '49', rate: '0' }, cofins: { cst: '49', rate: '0' } },
        }),
      ],
    });
    const v = valid(simplesBody, simples);
    expect(v.items[0]!.ibsCbs).toBeUndefined();
  });
  it('rates: ≤ 4 places, ≤ 100; cst 3 digits; base optional', () => {
    const ibs = (x: Record<string, unknown>) =>
      sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', ibs_cbs: { ...SAMPLE_IBS_CBS, ...x } })] });
    expect(firstError(ibs({ rate_state: '0.12345' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.br.ibs_cbs.rate_state',
    });
    expect(firstError(ibs({ rate_federal: '100.01' }))).toEqual({
      code: 'FIELD_OUT_OF_RANGE',
      field: 'items[0].product.br.ibs_cbs.rate_federal',
    });
    expect(firstError(ibs({ cst: '00' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.ibs_cbs.cst' });
    expect(valid(ibs({ base: '50.5' })).items[0]!.ibsCbs!.base).toBe('50.5');
  });
  it('NFS-e: at the item (additive), since an NFS-e ignores product.br', () => {
    expect(valid(sampleNfseRequest()).items[0]!.ibsCbs).toEqual({ ...SAMPLE_IBS_CBS, operation_indicator: '100301' });
    expect(firstError(sampleNfseRequest({ items: [service()] }))).toEqual({ code: 'IBS_CBS_REQUIRED', field: 'items[0].ibs_cbs' });
    // product.br.ibs_cbs of an NFS-e line is ignored like the rest of product.br
    expect(firstError(sampleNfseRequest({ items: [service({ product: { br: { ibs_cbs: SAMPLE_IBS_CBS } } })] }))).toEqual({
      code: 'IBS_CBS_REQUIRED',
      field: 'items[0].ibs_cbs',
    });
  });
});

describe('NFS-e items (SPEC.md "Item": discount, service_code, tax_retained, observations)', () => {
  const nfse = (...items: Record<string, unknown>[]) => sampleNfseRequest({ items });
  it('SERVICE_CODES_MIXED when items carry different service codes', () => {
    expect(firstError(nfse(service({ service_code: '1.07' }), service({ service_code: '17.01' })), simples)).toEqual({
      code: 'SERVICE_CODES_MIXED',
      field: 'items[1].service_code',
    });
  });
  it('same service in different spellings combines; default from the company', () => {
    const v = valid(nfse(service({ service_code: '1.07' }), service({ service_code: '010701' }), service()), simples);
    expect(v.items.map((i) => i.serviceCode)).toEqual(['010701', '010701', '010701']);
  });
  it('SERVICE_CODE_REQUIRED and SERVICE_CODE_UNKNOWN', () => {
    const noDefault = sampleIssuer('simples_nacional', { defaultServiceCode: undefined });
    expect(firstError(nfse(service()), noDefault)).toEqual({ code: 'SERVICE_CODE_REQUIRED', field: 'items[0].service_code' });
    expect(firstError(nfse(service({ service_code: '99.99' })), noDefault)).toEqual({
      code: 'SERVICE_CODE_UNKNOWN',
      field: 'items[0].service_code',
    });
  });
  it('discount: the unconditional service discount', () => {
    expect(valid(nfse(service({ discount: '10' })), simples).items[0]).toMatchObject({
      gross: '100.00',
      discount: '10.00',
      total: '90.00',
    });
  });
  it('tax_retained: boolean, one value for the whole NFS-e', () => {
    expect(valid(nfse(service({ tax_retained: true }), service({ tax_retained: true })), simples).items[0]!.taxRetained).toBe(true);
    expect(valid(nfse(service({ tax_retained: false })), simples).items[0]!.taxRetained).toBeUndefined();
    expect(firstError(nfse(service({ tax_retained: true }), service()), simples)).toEqual({
      code: 'FIELD_INVALID',
      field: 'items[1].tax_retained',
    });
    expect(firstError(nfse(service({ tax_retained: 'yes' })), simples)).toEqual({ code: 'FIELD_INVALID', field: 'items[0].tax_retained' });
  });
  it('observations: up to 2000, sharing the DPS xInfComp (2000) with the other items and additional_info', () => {
    expect(valid(nfse(service({ observations: 'O'.repeat(2000) })), simples).items[0]!.observations).toHaveLength(2000);
    expect(firstError(nfse(service({ observations: 'O'.repeat(2001) })), simples)).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'items[0].observations',
    });
    const [e] = errors(nfse(service({ observations: 'O'.repeat(1000) }), service({ observations: 'P'.repeat(1000) })), simples);
    expect(e).toMatchObject({
      code: 'FIELD_TOO_LONG',
      field: 'items[1].observations',
      expected: 'at most 2000 characters together for nfse',
      received: 2003,
    });
    expect(
      firstError(sampleNfseRequest({ items: [service({ observations: 'O'.repeat(1500) })], additional_info: 'A'.repeat(600) }), simples),
    ).toEqual({ code: 'FIELD_TOO_LONG', field: 'additional_info' });
  });
  it('TAX_ID_INVALID for an alphanumeric CNPJ (DPS v1.01 is numeric only)', () => {
    expect(firstError(sampleNfseRequest({ tax_id: '12ABC34501DE35' }), simples)).toEqual({ code: 'TAX_ID_INVALID', field: 'tax_id' });
  });
  it('ignores product.br (and unit, barcode, code); refuses the NF-e amounts of product and NF-e-only fields', () => {
    expect(valid(nfse(service({ product: { unit: 'HORAS12', br: { ncm: '1', cfop: '9' } } })), simples).items[0]!.product).toBeUndefined();
    expect(firstError(nfse(service({ product: { discount: '1' } })), simples)).toEqual({
      code: 'FIELD_NOT_APPLICABLE',
      field: 'items[0].product.discount',
    });
    expect(firstError(nfse(service({ product: { freight: '1' } })), simples)).toEqual({
      code: 'FIELD_NOT_APPLICABLE',
      field: 'items[0].product.freight',
    });
    expect(firstError(sampleNfseRequest({ contingency: true }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'contingency' });
    expect(firstError(sampleNfseRequest({ payment: [{ method: 'pix' }] }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'payment' });
  });
  it('one IBS/CBS classification per DPS', () => {
    const body = nfse(service({ ibs_cbs: SAMPLE_IBS_CBS }), service({ ibs_cbs: { ...SAMPLE_IBS_CBS, classification: '000002' } }));
    expect(firstError(body)).toEqual({ code: 'FIELD_INVALID', field: 'items[1].ibs_cbs' });
  });
});

describe('payments (NF-e, additive)', () => {
  it('default: the total as "other" for a sale, "none" for adjustment and return', () => {
    expect(valid(sampleNfeRequest()).payments).toEqual([{ method: 'other', code: '99', amount: '99.80', description: 'Nao informado' }]);
    expect(valid(sampleNfeRequest({ purpose: 'adjustment' })).payments).toEqual([{ method: 'none', code: '90', amount: '0.00' }]);
  });
  it('a single payment without amount takes the total', () => {
    expect(valid(sampleNfeRequest({ payment: [{ method: 'pix' }] })).payments).toEqual([{ method: 'pix', code: '17', amount: '99.80' }]);
  });
  it('PAYMENT_TOTAL_INSUFFICIENT, FIELD_REQUIRED with several payments', () => {
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '99.79' }] }))).toEqual({
      code: 'PAYMENT_TOTAL_INSUFFICIENT',
      field: 'payment',
    });
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '50' }, { method: 'pix' }] }))).toEqual({
      code: 'FIELD_REQUIRED',
      field: 'payment[1].amount',
    });
    expect(
      valid(
        sampleNfeRequest({
          payment: [
            { method: 'cash', amount: '50' },
            { method: 'pix', amount: '60' },
          ],
        }),
      ).payments,
    ).toHaveLength(2);
  });
  it('"none" stands alone with amount 0', () => {
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'none', amount: '1' }] }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'payment[0].amount',
    });
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'none' }, { method: 'cash', amount: '200' }] }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'payment[0].method',
    });
  });
  it('FIELD_PRECISION_UNSUPPORTED outside items', () => {
    expect(firstError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '100.001' }] }))).toEqual({
      code: 'FIELD_PRECISION_UNSUPPORTED',
      field: 'payment[0].amount',
    });
  });
});
