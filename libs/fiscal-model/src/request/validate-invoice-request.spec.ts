import { sampleIssuer, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import type { FieldError } from './field-error.js';
import { validateInvoiceRequest } from './validate-invoice-request.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const issuer = sampleIssuer('normal');

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
function item(overrides: Record<string, unknown> = {}) {
  const base = (sampleNfeRequest().items as Record<string, unknown>[])[0]!;
  return { ...base, ...overrides };
}
const nfe = (itemOverrides: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => sampleNfeRequest({ items: [item(itemOverrides)], ...top });

describe('validateInvoiceRequest: structure', () => {
  it('accepts the sample NF-e and NFS-e', () => {
    expect(valid(sampleNfeRequest()).items[0]).toMatchObject({ gross: '99.80', total: '99.80', unitPrice: '49.9000000000', unit: 'UN', code: 'SKU-1' });
    expect(valid(sampleNfseRequest()).items[0]).toMatchObject({ serviceCode: '010701', gross: '1500.00' });
  });
  it('refuses a body that is not an object', () => {
    expect(firstError([])).toEqual({ code: 'FIELD_INVALID', field: '' });
    expect(firstError('x')).toEqual({ code: 'FIELD_INVALID', field: '' });
  });
  it('reports missing required fields', () => {
    expect(firstError({ ...sampleNfeRequest(), document_type: undefined })).toEqual({ code: 'FIELD_REQUIRED', field: 'document_type' });
    expect(firstError(sampleNfeRequest({ items: [] }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items' });
    const noQuantity = item();
    delete (noQuantity as Record<string, unknown>).quantity;
    expect(firstError(sampleNfeRequest({ items: [noQuantity] }))).toEqual({ code: 'FIELD_REQUIRED', field: 'items[0].quantity' });
  });
  it('refuses unknown fields at every level (typos)', () => {
    expect(firstError(sampleNfeRequest({ discout: 1 }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'discout' });
    expect(firstError(nfe({ discout: '1' }))).toEqual({ code: 'FIELD_UNKNOWN', field: 'items[0].discout' });
  });
  it('refuses wrong enumerations, lengths and characters', () => {
    expect(firstError(sampleNfeRequest({ document_type: 'nfce' }))).toEqual({ code: 'FIELD_INVALID', field: 'document_type' });
    expect(firstError(nfe({ unit: 'CAIXA12' }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'items[0].unit' });
    expect(firstError(nfe({ description: 'Caneca ☕' }))).toEqual({ code: 'FIELD_CHARACTERS_UNSUPPORTED', field: 'items[0].description' });
    expect(firstError(sampleNfeRequest({ additional_info: 'x'.repeat(5001) }))).toEqual({ code: 'FIELD_TOO_LONG', field: 'additional_info' });
  });
  it('folds line breaks into spaces and keeps Latin-1 accents', () => {
    const value = valid(sampleNfeRequest({ additional_info: 'Pedido 12\nEntrega à tarde ' }));
    expect(value.additionalInfo).toBe('Pedido 12 Entrega à tarde');
  });
  it('limits NF-e items to 990', () => {
    expect(firstError(sampleNfeRequest({ items: Array.from({ length: 991 }, () => item()) }))).toEqual({ code: 'ITEMS_TOO_MANY', field: 'items' });
  });
  it('gives every error the documented shape', () => {
    const [e] = errorsOf(nfe({ amount: '99.81' }));
    expect(e).toEqual({ code: 'ITEM_TOTAL_MISMATCH', field: 'items[0].amount', message: expect.any(String), expected: '99.80', received: '99.81' });
  });
});

describe('validateInvoiceRequest: item values', () => {
  it('derives the gross from quantity × unit_price, half-up', () => {
    expect(valid(nfe({ quantity: '3', unit_price: '0.335' })).items[0]!.gross).toBe('1.01'); // 1.005 → 1.01
  });
  it('derives the unit price from amount / quantity with 10 places', () => {
    const v = valid(nfe({ quantity: '3', unit_price: undefined, amount: '10.00' })).items[0]!;
    expect(v.unitPrice).toBe('3.3333333333');
    expect(v.gross).toBe('10.00');
  });
  it('accepts both when they agree after rounding', () => {
    expect(valid(nfe({ quantity: '3', unit_price: '3.3333333333', amount: '10.00' })).items[0]!.gross).toBe('10.00');
  });
  it('ITEM_TOTAL_MISMATCH when amount differs from quantity × unit_price', () => {
    expect(firstError(nfe({ quantity: '2', unit_price: '49.90', amount: '99.90' }))).toEqual({ code: 'ITEM_TOTAL_MISMATCH', field: 'items[0].amount' });
  });
  it('ITEM_AMOUNT_MISSING when neither is given', () => {
    expect(firstError(nfe({ unit_price: undefined }))).toEqual({ code: 'ITEM_AMOUNT_MISSING', field: 'items[0].amount' });
  });
  it('ITEM_PRECISION_UNSUPPORTED beyond the places the XML carries', () => {
    expect(firstError(nfe({ amount: '10.001', unit_price: undefined }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].amount' });
    expect(firstError(nfe({ unit_price: '1.00000000001' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].unit_price' });
    expect(firstError(nfe({ quantity: '1.00001' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].quantity' });
    expect(firstError(nfe({ discount: '0.005' }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].discount' });
    // a float computed by the client: 0.1 + 0.2 arrives as 0.30000000000000004
    expect(firstError(nfe({ amount: 0.1 + 0.2, unit_price: undefined }))).toEqual({ code: 'ITEM_PRECISION_UNSUPPORTED', field: 'items[0].amount' });
  });
  it('accepts numbers through their decimal text, trailing zeros do not count', () => {
    const v = valid(nfe({ quantity: 1, unit_price: undefined, amount: 0.3 })).items[0]!;
    expect(v.gross).toBe('0.30');
    expect(valid(nfe({ quantity: '1.50000', unit_price: '2.000000000000' })).items[0]!.gross).toBe('3.00');
  });
  it('NFS-e quantities accept more than 4 places', () => {
    const body = sampleNfseRequest({ items: [{ description: 'Hora tecnica', quantity: '1.123456', unit_price: '100' }] });
    expect(valid(body, sampleIssuer('simples_nacional')).items[0]!.gross).toBe('112.35');
  });
  it('refuses values ≤ 0 and malformed decimals', () => {
    expect(firstError(nfe({ quantity: '0' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].quantity' });
    expect(firstError(nfe({ unit_price: '-1' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].unit_price' });
    expect(firstError(nfe({ amount: '0.00', unit_price: undefined }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].amount' });
    expect(firstError(nfe({ freight: '-0.01' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].freight' });
    expect(firstError(nfe({ unit_price: '1e3' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].unit_price' });
    expect(firstError(nfe({ unit_price: '1,50' }))).toEqual({ code: 'FIELD_INVALID', field: 'items[0].unit_price' });
    expect(firstError(nfe({ quantity: '1', unit_price: '0.001' }))).toEqual({ code: 'ITEM_VALUE_NOT_POSITIVE', field: 'items[0].unit_price' });
  });
  it('ITEM_DISCOUNT_EXCEEDS_GROSS', () => {
    expect(firstError(nfe({ discount: '99.81' }))).toEqual({ code: 'ITEM_DISCOUNT_EXCEEDS_GROSS', field: 'items[0].discount' });
    expect(valid(nfe({ discount: '99.80', freight: '1' })).items[0]!.total).toBe('1.00');
  });
  it('item total = gross − discount + freight + insurance + other expenses', () => {
    const v = valid(nfe({ discount: '10.00', freight: '5.5', insurance: 1.25, other_expenses: '0.05' })).items[0]!;
    expect(v).toMatchObject({ gross: '99.80', discount: '10.00', freight: '5.50', insurance: '1.25', otherExpenses: '0.05', total: '96.60' });
  });
});
