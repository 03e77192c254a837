import { sampleIssuer, sampleNfeItem, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import { firstRequestError, requestErrors, validRequest } from '../testing/validation.js';
import { acceptedRequestBody } from './validate-invoice-request.js';

const simples = sampleIssuer('simples_nacional');

/** The sample NF-e with one line: `values` at the item (unit_price, amount), `product` merged into its product. */
function nfe(values: Record<string, unknown> = {}, product: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  const base = (sampleNfeRequest().items as Record<string, unknown>[])[0]!;
  const item = { ...base, ...values, product: { ...(base.product as object), ...product } };
  return sampleNfeRequest({ items: [item], ...top });
}
const service = (x: Record<string, unknown> = {}) => ({ description: 'Servico', amount: '100', ...x });
const nfse = (...items: Record<string, unknown>[]) => sampleNfseRequest({ items });

describe('validateInvoiceRequest: structure (SPEC.md "Invoice request")', () => {
  it('accepts the sample NF-e and NFS-e', () => {
    expect(validRequest(sampleNfeRequest()).items[0]).toMatchObject({
      gross: '99.80',
      total: '99.80',
      unitPrice: '49.9000000000',
      unit: 'UN',
      code: 'SKU-1',
      quantity: '2',
    });
    expect(validRequest(sampleNfseRequest()).items[0]).toMatchObject({ serviceCode: '010701', gross: '1500.00', quantity: '1' });
  });
  it('refuses a body that is not an object', () => {
    expect(firstRequestError([])).toEqual({ code: 'FIELD_INVALID', field: '' });
    expect(firstRequestError('x')).toEqual({ code: 'FIELD_INVALID', field: '' });
  });
  it('reports missing required fields: document_type, client_name, tax_id, items', () => {
    for (const key of ['document_type', 'client_name', 'tax_id', 'items']) {
      expect(firstRequestError({ ...sampleNfeRequest(), [key]: undefined })).toEqual({ code: 'FIELD_REQUIRED', field: key });
    }
    expect(firstRequestError(sampleNfeRequest({ items: [] }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items' });
    expect(firstRequestError(sampleNfeRequest({ client_name: '' }))).toEqual({ code: 'FIELD_REQUIRED', field: 'client_name' });
  });
  it('refuses unknown fields at every level (typos)', () => {
    expect(firstRequestError(sampleNfeRequest({ discout: 1 }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'discout' });
    expect(firstRequestError(nfe({ discout: '1' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].discout' });
    expect(firstRequestError(nfe({}, { discout: '1' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].product.discout' });
  });
  it('one dialect: the earlier shapes are unknown fields, named by their path', () => {
    const address = sampleNfeRequest().recipient_address as Record<string, unknown>;
    expect(firstRequestError(sampleNfeRequest({ buyer: { tax_id: '12345678909', name: 'Maria' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'buyer',
    });
    expect(firstRequestError(sampleNfeRequest({ recipient_address: { ...address, district: 'Centro' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'recipient_address.district',
    });
    expect(firstRequestError(sampleNfeRequest({ recipient_address: { ...address, postal_code: '01305000' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'recipient_address.postal_code',
    });
    expect(firstRequestError(nfe({ quantity: '2' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].quantity' });
    expect(firstRequestError(nfe({ tax: {} }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].tax' });
    expect(firstRequestError(nfe({ unit: 'UN' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].unit' });
    const br = ((sampleNfeRequest().items as Record<string, { br: object }>[])[0]!.product as { br: object }).br;
    expect(firstRequestError(nfe({}, { br: { ...br, gtin: '7891000315507' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'items[0].product.br.gtin',
    });
  });
  it('refuses wrong enumerations, lengths and characters', () => {
    expect(firstRequestError(sampleNfeRequest({ document_type: 'nfce' }))).toEqual({ code: 'FIELD_INVALID', field: 'document_type' });
    expect(firstRequestError(nfe({}, { unit: 'CAIXA12' }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'items[0].product.unit' });
    expect(firstRequestError(nfe({ description: 'x'.repeat(121) }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'items[0].description' });
    expect(firstRequestError(nfe({ description: 'Caneca ☕' }))).toEqual({
      code: 'FIELD_CHARACTERS_UNSUPPORTED',
      field: 'items[0].description',
    });
    expect(firstRequestError(sampleNfeRequest({ client_name: 'x'.repeat(121) }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'client_name' });
    expect(firstRequestError(sampleNfeRequest({ additional_info: 'x'.repeat(5001) }))).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'additional_info',
    });
    expect(firstRequestError(sampleNfeRequest({ contingency: 'yes' }))).toEqual({ code: 'FIELD_INVALID', field: 'contingency' });
  });
  it('folds line breaks into spaces and keeps Latin-1 accents', () => {
    const value = validRequest(sampleNfeRequest({ additional_info: 'Pedido 12\nEntrega à tarde ' }));
    expect(value.additionalInfo).toBe('Pedido 12 Entrega à tarde');
  });
  it('limits items to 990', () => {
    expect(firstRequestError(sampleNfeRequest({ items: Array.from({ length: 991 }, () => sampleNfeItem({ unit_price: '1' })) }))).toEqual({
      code: 'ITEMS_TOO_MANY',
      field: 'items',
    });
  });
  it('series and number: strings of digits (as SPEC.md types them) or integers, within the layout range', () => {
    expect(validRequest(sampleNfeRequest({ series: '2', number: '000123' }))).toMatchObject({ series: 2, number: 123 });
    expect(validRequest(sampleNfeRequest({ series: 0, number: 999_999_999 }))).toMatchObject({ series: 0, number: 999_999_999 });
    expect(validRequest(sampleNfeRequest())).not.toHaveProperty('series');
    expect(firstRequestError(sampleNfeRequest({ series: '1000' }))).toEqual({ code: 'FIELD_INVALID', field: 'series' });
    expect(firstRequestError(sampleNfeRequest({ series: 1000 }))).toEqual({ code: 'FIELD_OUT_OF_RANGE', field: 'series' });
    expect(firstRequestError(sampleNfeRequest({ number: '0' }))).toEqual({ code: 'FIELD_OUT_OF_RANGE', field: 'number' });
    expect(firstRequestError(sampleNfeRequest({ number: '12a' }))).toEqual({ code: 'FIELD_INVALID', field: 'number' });
    expect(firstRequestError(sampleNfeRequest({ number: 1.5 }))).toEqual({ code: 'FIELD_INVALID', field: 'number' });
    expect(firstRequestError(sampleNfeRequest({ number: '1234567890' }))).toEqual({ code: 'FIELD_INVALID', field: 'number' });
  });
  it('contingency: nfe only, default false', () => {
    expect(validRequest(sampleNfeRequest()).contingency).toBe(false);
    expect(validRequest(sampleNfeRequest({ contingency: true })).contingency).toBe(true);
    expect(firstRequestError(sampleNfseRequest({ contingency: true }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'contingency' });
  });
  it('gives every error the documented shape', () => {
    const [e] = requestErrors(nfe({ amount: '99.81' }));
    expect(e).toEqual({
      code: 'ITEM_TOTAL_MISMATCH',
      field: 'items[0].amount',
      message: expect.any(String),
      expected: '99.80',
      received: '99.81',
    });
  });
});

describe('validateInvoiceRequest: SPEC.md "Rules on item values" and the four item codes', () => {
  it('rule 1 / ITEM_TOTAL_MISMATCH: both sent and quantity × unit_price differs from amount', () => {
    const [e] = requestErrors(nfe({ unit_price: '49.90', amount: '99.90' }, { quantity: '2' }));
    expect(e).toEqual({
      code: 'ITEM_TOTAL_MISMATCH',
      field: 'items[0].amount',
      message: expect.stringMatching(/99\.80/),
      expected: '99.80',
      received: '99.90',
    });
    expect(firstRequestError(nfse(service({ unit_price: '100', amount: '200', product: { quantity: '1' } })), simples)).toEqual({
      code: 'ITEM_TOTAL_MISMATCH',
      field: 'items[0].amount',
    });
    expect(validRequest(nfe({ unit_price: '3.3333333333', amount: '10.00' }, { quantity: '3' })).items[0]!.gross).toBe('10.00');
  });
  it('ITEM_AMOUNT_MISSING: neither unit_price nor amount', () => {
    const [e] = requestErrors(nfe({ unit_price: undefined }));
    expect(e).toEqual({
      code: 'ITEM_AMOUNT_MISSING',
      field: 'items[0].amount',
      message: expect.any(String),
      expected: 'unit_price and/or amount',
      received: null,
    });
    expect(firstRequestError(nfse({ description: 'Servico' }), simples)).toEqual({ code: 'ITEM_AMOUNT_MISSING', field: 'items[0].amount' });
  });
  it('rule 2: only amount → unit price derived with 10 places, line value with 2', () => {
    const v = validRequest(nfe({ unit_price: undefined, amount: '10.00' }, { quantity: '3' })).items[0]!;
    expect(v).toMatchObject({ unitPrice: '3.3333333333', gross: '10.00' });
    // 2,000,000.00 / 700,000,000 = 0.00285714285714…: with 10 places the price gives 2,000,000.03 (rejection 629)
    expect(firstRequestError(nfe({ unit_price: undefined, amount: '2000000.00' }, { quantity: '700000000' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].amount',
    });
  });
  it('only unit_price → gross = round2(quantity × unit_price), half-up', () => {
    expect(validRequest(nfe({ unit_price: '0.335' }, { quantity: '3' })).items[0]!.gross).toBe('1.01'); // 1.005 → 1.01
  });
  it('rule 3 / ITEM_DISCOUNT_EXCEEDS_GROSS: a discount above the gross amount (equal is allowed)', () => {
    const [e] = requestErrors(nfe({}, { discount: '99.81' }));
    expect(e).toEqual({
      code: 'ITEM_DISCOUNT_EXCEEDS_GROSS',
      field: 'items[0].product.discount',
      message: expect.any(String),
      expected: 'at most 99.80',
      received: '99.81',
    });
    expect(validRequest(nfe({}, { discount: '99.80', freight: '1' })).items[0]!.total).toBe('1.00');
    expect(firstRequestError(nfse(service({ discount: '100.01' })), simples)).toEqual({
      code: 'ITEM_DISCOUNT_EXCEEDS_GROSS',
      field: 'items[0].discount',
    });
  });
  it('rule 3 / ITEM_PRECISION_UNSUPPORTED: unit_price 10, amount and the additions 2, quantity 4 places', () => {
    const [e] = requestErrors(nfe({ unit_price: undefined, amount: '10.001' }));
    expect(e).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].amount',
      message: expect.any(String),
      expected: 'at most 2 decimal places',
      received: '10.001',
    });
    expect(firstRequestError(nfe({ unit_price: '1.00000000001' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].unit_price',
    });
    expect(firstRequestError(nfe({}, { quantity: '1.00001' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.quantity',
    });
    expect(firstRequestError(nfe({}, { discount: '0.005' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.discount',
    });
    expect(firstRequestError(nfe({}, { freight: '0.001' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.freight',
    });
    expect(firstRequestError(nfse(service({ product: { quantity: '1.00001' } })), simples)).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.quantity',
    });
    expect(firstRequestError(nfse(service({ discount: '0.001' })), simples)).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].discount',
    });
    // a float computed by the client: 0.1 + 0.2 arrives as 0.30000000000000004
    expect(firstRequestError(nfe({ unit_price: undefined, amount: 0.1 + 0.2 }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].amount',
    });
  });
  it('rule 3: values at or below zero are refused; malformed decimals too', () => {
    expect(firstRequestError(nfe({}, { quantity: '0' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].product.quantity' });
    expect(firstRequestError(nfe({ unit_price: '-1' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].unit_price' });
    expect(firstRequestError(nfe({ unit_price: undefined, amount: '0.00' }))).toEqual({
      code: 'ITEM_VALUE_NOT_POSITIVE',
      field: 'items[0].amount',
    });
    expect(firstRequestError(nfe({}, { freight: '-0.01' }))).toEqual({
      code: 'ITEM_VALUE_NOT_POSITIVE',
      field: 'items[0].product.freight',
    });
    expect(firstRequestError(nfe({ unit_price: '0.001' }, { quantity: '1' }))).toEqual({
      code: 'ITEM_VALUE_NOT_POSITIVE',
      field: 'items[0].unit_price',
    });
    expect(firstRequestError(nfse(service({ amount: '-5' })), simples)).toEqual({
      code: 'ITEM_VALUE_NOT_POSITIVE',
      field: 'items[0].amount',
    });
    expect(firstRequestError(nfe({ unit_price: '1e3' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].unit_price' });
    expect(firstRequestError(nfe({ unit_price: '1,50' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].unit_price' });
  });
  it('accepts numbers through their decimal text; unit_price as a string or a number; trailing zeros do not count', () => {
    expect(validRequest(nfe({ unit_price: undefined, amount: 0.3 }, { quantity: 1 })).items[0]!.gross).toBe('0.30');
    expect(validRequest(nfe({ unit_price: 49.9 })).items[0]!.gross).toBe('99.80');
    expect(validRequest(nfe({ unit_price: '2.000000000000' }, { quantity: '1.50000' })).items[0]!.gross).toBe('3.00');
  });
  it('rule 4: item total = gross − discount + freight + insurance + other expenses', () => {
    const v = validRequest(nfe({}, { discount: '10.00', freight: '5.5', insurance: 1.25, other_expenses: '0.05' })).items[0]!;
    expect(v).toMatchObject({
      gross: '99.80',
      discount: '10.00',
      freight: '5.50',
      insurance: '1.25',
      otherExpenses: '0.05',
      total: '96.60',
    });
  });
  it('NF-e: product.quantity and product.unit are required', () => {
    expect(firstRequestError(nfe({}, { quantity: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items[0].product.quantity' });
    expect(firstRequestError(nfe({}, { unit: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items[0].product.unit' });
  });
  it('NFS-e: product.quantity defaults to 1 and multiplies the unit price', () => {
    expect(validRequest(nfse(service({ amount: undefined, unit_price: '100' })), simples).items[0]).toMatchObject({
      quantity: '1',
      gross: '100.00',
    });
    expect(
      validRequest(nfse(service({ amount: undefined, unit_price: '100', product: { quantity: '2.5' } })), simples).items[0],
    ).toMatchObject({
      quantity: '2.5',
      gross: '250.00',
    });
  });
});

describe('acceptedRequestBody: what an NFS-e ignores is neither validated nor stored', () => {
  it('drops product.br, unit, barcode and code of NFS-e lines; keeps quantity and the refused amounts', () => {
    const first = {
      description: 'Hora',
      unit_price: '100',
      product: { quantity: '2', unit: 'HORAS-X', barcode: '1', code: 'S1', br: { ncm: 'x', tax: { nonsense: true } } },
    };
    const body = nfse(first, service({ product: { br: {} } }));
    expect((acceptedRequestBody(body) as { items: unknown[] }).items).toEqual([
      { description: 'Hora', unit_price: '100', product: { quantity: '2' } },
      service(),
    ]);
    expect(validRequest(body, simples).items[0]).toMatchObject({ quantity: '2', gross: '200.00' });
    expect(validRequest(body, simples).items[0]!.product).toBeUndefined();
  });
  it('leaves NF-e bodies and non-objects as they are', () => {
    const body = sampleNfeRequest();
    expect(acceptedRequestBody(body)).toBe(body);
    expect(acceptedRequestBody('x')).toBe('x');
  });
});
