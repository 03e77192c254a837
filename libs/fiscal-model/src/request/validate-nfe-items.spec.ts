// Validation of an NF-e's items (product, product.br) and payments (SPEC.md "Item").
import { SAMPLE_IBS_CBS, sampleNfeItem, sampleNfeRequest } from '../testing/samples.js';
import { firstRequestError, validRequest } from '../testing/validation.js';

const withBr = (br: Record<string, unknown>) => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', br })] });
/** Goods under tax substitution (ICMS CST 60: ST charged before), the ones a CEST goes with. */
const ST_TAX = { icms: { cst: '60', origin: '0' }, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '01', rate: '7.6' } };
const withStBr = (br: Record<string, unknown>) => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', tax: ST_TAX, br })] });
const withProduct = (product: Record<string, unknown>) => sampleNfeRequest({ items: [sampleNfeItem({ unit_price: '10', product })] });

describe('NF-e items: product and product.br (SPEC.md "Item")', () => {
  it('PRODUCT_REQUIRED without product or product.br', () => {
    const item = sampleNfeItem({ unit_price: '10' });
    expect(firstRequestError(sampleNfeRequest({ items: [{ ...item, product: undefined }] }))).toEqual({
      code: 'PRODUCT_REQUIRED',
      field: 'items[0].product',
    });
    expect(firstRequestError(sampleNfeRequest({ items: [{ ...item, product: { quantity: '1', unit: 'UN' } }] }))).toEqual({
      code: 'PRODUCT_REQUIRED',
      field: 'items[0].product.br',
    });
  });
  it('NCM 8 digits, CFOP 4 digits, CEST 7 digits', () => {
    expect(firstRequestError(withBr({ ncm: '6109100' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.ncm' });
    expect(firstRequestError(withBr({ cfop: '510' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.cfop' });
    expect(firstRequestError(withBr({ cest: '123456' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].product.br.cest' });
    expect(validRequest(withStBr({ cest: '2806300' })).items[0]!.product!.cest).toBe('2806300');
    // SPEC.md: CEST only for goods under tax substitution; for other goods it is grounds for rejection.
    expect(firstRequestError(withBr({ cest: '2806300' }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'items[0].product.br.cest' });
  });
  it('CFOP_DESTINATION_MISMATCH for 6xxx/7xxx inside the state', () => {
    expect(firstRequestError(withBr({ cfop: '6102' }))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
    expect(firstRequestError(withBr({ cfop: '7102' }))).toEqual({ code: 'CFOP_DESTINATION_MISMATCH', field: 'items[0].product.br.cfop' });
  });
  it.each([
    ['7891000315508', 'GTIN_CHECK_DIGIT_INVALID'],
    ['96385075', 'GTIN_CHECK_DIGIT_INVALID'],
    ['123', 'FIELD_INVALID'],
  ])('product.barcode %s: %s (the GTIN check digit is verified)', (barcode, code) => {
    expect(firstRequestError(withProduct({ barcode }))).toEqual({ code, field: 'items[0].product.barcode' });
  });
  it('product.barcode: a valid GTIN carried; omitted → SEM GTIN', () => {
    expect(validRequest(withProduct({})).items[0]!.product!.gtin).toBe('SEM GTIN');
    expect(validRequest(withProduct({ barcode: 'SEM GTIN' })).items[0]!.product!.gtin).toBe('SEM GTIN');
    expect(validRequest(withProduct({ barcode: '96385074' })).items[0]!.product!.gtin).toBe('96385074');
  });
  it('product.br.manufacturer_cnpj: CNPJ shape, carried beside CEST', () => {
    expect(validRequest(withStBr({ cest: '2806300', manufacturer_cnpj: '12ABC34501DE35' })).items[0]!.product).toMatchObject({
      manufacturerCnpj: '12ABC34501DE35',
    });
    expect(firstRequestError(withStBr({ cest: '2806300', manufacturer_cnpj: '112223330001' }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'items[0].product.br.manufacturer_cnpj',
    });
    expect(firstRequestError(withBr({ manufacturer_cnpj: '11222333000181' }))).toEqual({
      code: 'FIELD_REQUIRED',
      field: 'items[0].product.br.cest',
    });
  });
  it('IBS/CBS on an NF-e: the group of CST 000; another CST, whose group differs, is refused rather than mis-stated', () => {
    expect(validRequest(withBr({})).items[0]!.ibsCbs).toMatchObject({ cst: '000' });
    for (const cst of ['200', '410', '510', '620']) {
      expect(firstRequestError(withBr({ ibs_cbs: { ...SAMPLE_IBS_CBS, cst } }))).toEqual({
        code: 'FIELD_INVALID',
        field: 'items[0].product.br.ibs_cbs.cst',
      });
    }
  });
  it('product.code (additive) → cProd, default the line number', () => {
    expect(validRequest(withProduct({ code: 'ABC' })).items[0]!.code).toBe('ABC');
    expect(validRequest(withProduct({})).items[0]!.code).toBe('1');
  });
  it('TAX_REQUIRED: product.br.tax on NF-e', () => {
    const item = sampleNfeItem({ unit_price: '10' });
    const product = item.product as { br: Record<string, unknown> };
    expect(
      firstRequestError(sampleNfeRequest({ items: [{ ...item, product: { ...product, br: { ...product.br, tax: undefined } } }] })),
    ).toEqual({
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
      expect(firstRequestError(sampleNfeRequest({ items: [{ ...item, [key]: value }] }))).toEqual({
        code: 'FIELD_NOT_APPLICABLE',
        field: `items[0].${key}`,
      });
    }
  });
  it('REFERENCE_REQUIRED for complementary and return', () => {
    expect(firstRequestError(sampleNfeRequest({ purpose: 'return' }))).toEqual({ code: 'REFERENCE_REQUIRED', field: 'referenced_keys' });
    expect(
      validRequest(sampleNfeRequest({ purpose: 'return', referenced_keys: ['35180834128745000152550010000474281920007498'] }))
        .referencedKeys,
    ).toHaveLength(1);
  });
});

describe('payments (NF-e, additive)', () => {
  it('default: the total as "other" for a sale, "none" for adjustment and return', () => {
    expect(validRequest(sampleNfeRequest()).payments).toEqual([
      { method: 'other', code: '99', amount: '99.80', description: 'Nao informado' },
    ]);
    expect(validRequest(sampleNfeRequest({ purpose: 'adjustment' })).payments).toEqual([{ method: 'none', code: '90', amount: '0.00' }]);
  });
  it('a single payment without amount takes the total', () => {
    expect(validRequest(sampleNfeRequest({ payment: [{ method: 'pix' }] })).payments).toEqual([
      { method: 'pix', code: '17', amount: '99.80' },
    ]);
  });
  it('PAYMENT_TOTAL_INSUFFICIENT, FIELD_REQUIRED with several payments', () => {
    expect(firstRequestError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '99.79' }] }))).toEqual({
      code: 'PAYMENT_TOTAL_INSUFFICIENT',
      field: 'payment',
    });
    expect(firstRequestError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '50' }, { method: 'pix' }] }))).toEqual({
      code: 'FIELD_REQUIRED',
      field: 'payment[1].amount',
    });
    expect(
      validRequest(
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
    expect(firstRequestError(sampleNfeRequest({ payment: [{ method: 'none', amount: '1' }] }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'payment[0].amount',
    });
    expect(firstRequestError(sampleNfeRequest({ payment: [{ method: 'none' }, { method: 'cash', amount: '200' }] }))).toEqual({
      code: 'FIELD_INVALID',
      field: 'payment[0].method',
    });
  });
  it('FIELD_PRECISION_UNSUPPORTED outside items', () => {
    expect(firstRequestError(sampleNfeRequest({ payment: [{ method: 'cash', amount: '100.001' }] }))).toEqual({
      code: 'FIELD_PRECISION_UNSUPPORTED',
      field: 'payment[0].amount',
    });
  });
});
