import { sampleIssuer, sampleNfeItem, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import type { FieldError } from './field-error.js';
import { acceptedRequestBody, validateInvoiceRequest } from './validate-invoice-request.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const issuer = sampleIssuer('normal');
const simples = sampleIssuer('simples_nacional');

function errorsOf(body: unknown, iss = issuer): FieldError[] {
  const result = validateInvoiceRequest(body, iss, { now: NOW });
  if (result.ok) throw new Error('expected a validation failure');
  return result.errors;
}
function firstError(body: unknown, iss = issuer) {
  const [first] = errorsOf(body, iss);
  return { code: first!.code, field: first!.field };
}
function valid(body: unknown, iss = issuer) {
  const result = validateInvoiceRequest(body, iss, { now: NOW });
  if (!result.ok) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.value;
}
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
    expect(valid(sampleNfeRequest()).items[0]).toMatchObject({
      gross: '99.80',
      total: '99.80',
      unitPrice: '49.9000000000',
      unit: 'UN',
      code: 'SKU-1',
      quantity: '2',
    });
    expect(valid(sampleNfseRequest()).items[0]).toMatchObject({ serviceCode: '010701', gross: '1500.00', quantity: '1' });
  });
  it('refuses a body that is not an object', () => {
    expect(firstError([])).toEqual({ code: 'FIELD_INVALID', field: '' });
    expect(firstError('x')).toEqual({ code: 'FIELD_INVALID', field: '' });
  });
  it('reports missing required fields: document_type, client_name, tax_id, items', () => {
    for (const key of ['document_type', 'client_name', 'tax_id', 'items']) {
      expect(firstError({ ...sampleNfeRequest(), [key]: undefined })).toEqual({ code: 'FIELD_REQUIRED', field: key });
    }
    expect(firstError(sampleNfeRequest({ items: [] }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items' });
    expect(firstError(sampleNfeRequest({ client_name: '' }))).toEqual({ code: 'FIELD_REQUIRED', field: 'client_name' });
  });
  it('refuses unknown fields at every level (typos)', () => {
    expect(firstError(sampleNfeRequest({ discout: 1 }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'discout' });
    expect(firstError(nfe({ discout: '1' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].discout' });
    expect(firstError(nfe({}, { discout: '1' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].product.discout' });
  });
  it('one dialect: the earlier shapes are unknown fields, named by their path', () => {
    const address = sampleNfeRequest().recipient_address as Record<string, unknown>;
    expect(firstError(sampleNfeRequest({ buyer: { tax_id: '12345678909', name: 'Maria' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'buyer',
    });
    expect(firstError(sampleNfeRequest({ recipient_address: { ...address, district: 'Centro' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'recipient_address.district',
    });
    expect(firstError(sampleNfeRequest({ recipient_address: { ...address, postal_code: '01305000' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'recipient_address.postal_code',
    });
    expect(firstError(nfe({ quantity: '2' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].quantity' });
    expect(firstError(nfe({ tax: {} }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].tax' });
    expect(firstError(nfe({ unit: 'UN' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].unit' });
    const br = ((sampleNfeRequest().items as Record<string, { br: object }>[])[0]!.product as { br: object }).br;
    expect(firstError(nfe({}, { br: { ...br, gtin: '7891000315507' } }))).toEqual({
      code: 'FIELD_UNKNOWN',
      field: 'items[0].product.br.gtin',
    });
  });
  it('refuses wrong enumerations, lengths and characters', () => {
    expect(firstError(sampleNfeRequest({ document_type: 'nfce' }))).toEqual({ code: 'FIELD_INVALID', field: 'document_type' });
    expect(firstError(nfe({}, { unit: 'CAIXA12' }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'items[0].product.unit' });
    expect(firstError(nfe({ description: 'x'.repeat(121) }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'items[0].description' });
    expect(firstError(nfe({ description: 'Caneca ☕' }))).toEqual({ code: 'FIELD_CHARACTERS_UNSUPPORTED', field: 'items[0].description' });
    expect(firstError(sampleNfeRequest({ client_name: 'x'.repeat(121) }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'client_name' });
    expect(firstError(sampleNfeRequest({ additional_info: 'x'.repeat(5001) }))).toEqual({
      code: 'FIELD_TOO_LONG',
      field: 'additional_info',
    });
    expect(firstError(sampleNfeRequest({ contingency: 'yes' }))).toEqual({ code: 'FIELD_INVALID', field: 'contingency' });
  });
  it('folds line breaks into spaces and keeps Latin-1 accents', () => {
    const value = valid(sampleNfeRequest({ additional_info: 'Pedido 12\nEntrega à tarde ' }));
    expect(value.additionalInfo).toBe('Pedido 12 Entrega à tarde');
  });
  it('limits items to 990', () => {
    expect(firstError(sampleNfeRequest({ items: Array.from({ length: 991 }, () => sampleNfeItem({ unit_price: '1' })) }))).toEqual({
      code: 'ITEMS_TOO_MANY',
      field: 'items',
    });
  });
  it('series and number: strings of digits (as SPEC.md types them) or integers, within the layout range', () => {
    expect(valid(sampleNfeRequest({ series: '2', number: '000123' }))).toMatchObject({ series: 2, number: 123 });
    expect(valid(sampleNfeRequest({ series: 0, number: 999_999_999 }))).toMatchObject({ series: 0, number: 999_999_999 });
    expect(valid(sampleNfeRequest())).not.toHaveProperty('series');
    expect(firstError(sampleNfeRequest({ series: '1000' }))).toEqual({ code: 'FIELD_INVALID', field: 'series' });
    expect(firstError(sampleNfeRequest({ series: 1000 }))).toEqual({ code: 'FIELD_OUT_OF_RANGE', field: 'series' });
    expect(firstError(sampleNfeRequest({ number: '0' }))).toEqual({ code: 'FIELD_OUT_OF_RANGE', field: 'number' });
    expect(firstError(sampleNfeRequest({ number: '12a' }))).toEqual({ code: 'FIELD_INVALID', field: 'number' });
    expect(firstError(sampleNfeRequest({ number: 1.5 }))).toEqual({ code: 'FIELD_INVALID', field: 'number' });
    expect(firstError(sampleNfeRequest({ number: '1234567890' }))).toEqual({ code: 'FIELD_INVALID', field: 'number' });
  });
  it('contingency: nfe only, default false', () => {
    expect(valid(sampleNfeRequest()).contingency).toBe(false);
    expect(valid(sampleNfeRequest({ contingency: true })).contingency).toBe(true);
    expect(firstError(sampleNfseRequest({ contingency: true }))).toEqual({ code: 'FIELD_NOT_APPLICABLE', field: 'contingency' });
  });
  it('gives every error the documented shape', () => {
    const [e] = errorsOf(nfe({ amount: '99.81' }));
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
    const [e] = errorsOf(nfe({ unit_price: '49.90', amount: '99.90' }, { quantity: '2' }));
    expect(e).toEqual({
      code: 'ITEM_TOTAL_MISMATCH',
      field: 'items[0].amount',
      message: expect.stringMatching(/99\.80/),
      expected: '99.80',
      received: '99.90',
    });
    expect(firstError(nfse(service({ unit_price: '100', amount: '200', product: { quantity: '1' } })), simples)).toEqual({
      code: 'ITEM_TOTAL_MISMATCH',
      field: 'items[0].amount',
    });
    expect(valid(nfe({ unit_price: '3.3333333333', amount: '10.00' }, { quantity: '3' })).items[0]!.gross).toBe('10.00');
  });
  it('ITEM_AMOUNT_MISSING: neither unit_price nor amount', () => {
    const [e] = errorsOf(nfe({ unit_price: undefined }));
    expect(e).toEqual({
      code: 'ITEM_AMOUNT_MISSING',
      field: 'items[0].amount',
      message: expect.any(String),
      expected: 'unit_price and/or amount',
      received: null,
    });
    expect(firstError(nfse({ description: 'Servico' }), simples)).toEqual({ code: 'ITEM_AMOUNT_MISSING', field: 'items[0].amount' });
  });
  it('rule 2: only amount → unit price derived with 10 places, line value with 2', () => {
    const v = valid(nfe({ unit_price: undefined, amount: '10.00' }, { quantity: '3' })).items[0]!;
    expect(v).toMatchObject({ unitPrice: '3.3333333333', gross: '10.00' });
  });
  it('only unit_price → gross = round2(quantity × unit_price), half-up', () => {
    expect(valid(nfe({ unit_price: '0.335' }, { quantity: '3' })).items[0]!.gross).toBe('1.01'); // 1.005 → 1.01
  });
  it('rule 3 / ITEM_DISCOUNT_EXCEEDS_GROSS: a discount above the gross amount (equal is allowed)', () => {
    const [e] = errorsOf(nfe({}, { discount: '99.81' }));
    expect(e).toEqual({
      code: 'ITEM_DISCOUNT_EXCEEDS_GROSS',
      field: 'items[0].product.discount',
      message: expect.any(String),
      expected: 'at most 99.80',
      received: '99.81',
    });
    expect(valid(nfe({}, { discount: '99.80', freight: '1' })).items[0]!.total).toBe('1.00');
    expect(firstError(nfse(service({ discount: '100.01' })), simples)).toEqual({
      code: 'ITEM_DISCOUNT_EXCEEDS_GROSS',
      field: 'items[0].discount',
    });
  });
  it('rule 3 / ITEM_PRECISION_UNSUPPORTED: unit_price 10, amount and the additions 2, quantity 4 places', () => {
    const [e] = errorsOf(nfe({ unit_price: undefined, amount: '10.001' }));
    expect(e).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].amount',
      message: expect.any(String),
      expected: 'at most 2 decimal places',
      received: '10.001',
    });
    expect(firstError(nfe({ unit_price: '1.00000000001' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].unit_price' });
    expect(firstError(nfe({}, { quantity: '1.00001' }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.quantity',
    });
    expect(firstError(nfe({}, { discount: '0.005' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].product.discount' });
    expect(firstError(nfe({}, { freight: '0.001' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].product.freight' });
    expect(firstError(nfse(service({ product: { quantity: '1.00001' } })), simples)).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].product.quantity',
    });
    expect(firstError(nfse(service({ discount: '0.001' })), simples)).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].discount',
    });
    // a float computed by the client: 0.1 + 0.2 arrives as 0.30000000000000004
    expect(firstError(nfe({ unit_price: undefined, amount: 0.1 + 0.2 }))).toEqual({
      code: 'ITEM_PRECISION_UNSUPPORTED',
      field: 'items[0].amount',
    });
  });
  it('rule 3: values at or below zero are refused; malformed decimals too', () => {
    expect(firstError(nfe({}, { quantity: '0' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].product.quantity' });
    expect(firstError(nfe({ unit_price: '-1' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].unit_price' });
    expect(firstError(nfe({ unit_price: undefined, amount: '0.00' }))).toEqual({
      code: 'ITEM_VALUE_NOT_POSITIVE',
      field: 'items[0].amount',
    });
    expect(firstError(nfe({}, { freight: '-0.01' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].product.freight' });
    expect(firstError(nfe({ unit_price: '0.001' }, { quantity: '1' }))).toEqual({
      code: 'ITEM_VALUE_NOT_POSITIVE',
      field: 'items[0].unit_price',
    });
    expect(firstError(nfse(service({ amount: '-5' })), simples)).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].amount' });
    expect(firstError(nfe({ unit_price: '1e3' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].unit_price' });
    expect(firstError(nfe({ unit_price: '1,50' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].unit_price' });
  });
  it('accepts numbers through their decimal text; unit_price as a string or a number; trailing zeros do not count', () => {
    expect(valid(nfe({ unit_price: undefined, amount: 0.3 }, { quantity: 1 })).items[0]!.gross).toBe('0.30');
    expect(valid(nfe({ unit_price: 49.9 })).items[0]!.gross).toBe('99.80');
    expect(valid(nfe({ unit_price: '2.000000000000' }, { quantity: '1.50000' })).items[0]!.gross).toBe('3.00');
  });
  it('rule 4: item total = gross − discount + freight + insurance + other expenses', () => {
    const v = valid(nfe({}, { discount: '10.00', freight: '5.5', insurance: 1.25, other_expenses: '0.05' })).items[0]!;
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
    expect(firstError(nfe({}, { quantity: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items[0].product.quantity' });
    expect(firstError(nfe({}, { unit: undefined }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items[0].product.unit' });
  });
  it('NFS-e: product.quantity defaults to 1 and multiplies the unit price', () => {
    expect(valid(nfse(service({ amount: undefined, unit_price: '100' })), simples).items[0]).toMatchObject({
      quantity: '1',
      gross: '100.00',
    });
    expect(valid(nfse(service({ amount: undefined, unit_price: '100', product: { quantity: '2.5' } })), simples).items[0]).toMatchObject({
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
    expect(valid(body, simples).items[0]).toMatchObject({ quantity: '2', gross: '200.00' });
    expect(valid(body, simples).items[0]!.product).toBeUndefined();
  });
  it('leaves NF-e bodies and non-objects as they are', () => {
    const body = sampleNfeRequest();
    expect(acceptedRequestBody(body)).toBe(body);
    expect(acceptedRequestBody('x')).toBe('x');
  });
});
