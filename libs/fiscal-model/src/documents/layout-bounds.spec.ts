// Values computed from several inputs (a line's amount, its unit price, the totals) are refused at validation when
// the document or the invoice record cannot carry them (issue 15, defects 4 and 11).
import { sampleIssuer, sampleNfeRequest, sampleNfseRequest } from '../testing/samples.js';
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';
import { MAX_DOCUMENT_AMOUNT, MAX_UNIT_PRICE } from './layout-bounds.js';

/** The line with product.quantity set (the request carries the quantity under product). */
const withQuantity = (line: Record<string, unknown>, quantity: string): Record<string, unknown> => ({
  ...line,
  product: { ...(line['product'] as Record<string, unknown>), quantity },
});

const NOW = new Date('2026-03-10T15:00:00Z');
const issuer = sampleIssuer('normal');
const nfeItem = () => (sampleNfeRequest().items as Record<string, unknown>[])[0]!;
const nfseItem = () => (sampleNfseRequest().items as Record<string, unknown>[])[0]!;
const withoutPrice = () => {
  const { unit_price: _price, ...item } = nfeItem();
  return item;
};

function errorsOf(body: Record<string, unknown>) {
  const result = validateInvoiceRequest(body, issuer, { now: NOW });
  return result.ok ? [] : result.errors;
}

/** The errors of an NF-e request with these lines. */
const nfeErrors = (...items: Record<string, unknown>[]) => errorsOf(sampleNfeRequest({ items }));
/** An NF-e line priced by its amount alone: the unit price is amount ÷ quantity. */
const pricedLine = (quantity: string, amount: string) => ({ ...withQuantity(withoutPrice(), quantity), amount });
/** The one error of a value past a layout bound. */
const outOfRange = (details: { field: string; expected?: string; received?: string }) => [
  expect.objectContaining({ code: 'FIELD_OUT_OF_RANGE', ...details }),
];

describe('layout bounds at validation', () => {
  it('refuses quantity × unit_price past 13 integer digits (numeric(15,2), TDec_1302), naming the line', () => {
    const errors = nfeErrors({ ...withQuantity(nfeItem(), '99999999999'), unit_price: '99999999999' });
    expect(errors).toEqual(
      outOfRange({
        field: 'items[0].product.quantity',
        expected: `a line amount of at most ${MAX_DOCUMENT_AMOUNT}`,
        received: '99999999999',
      }),
    );
    expect(errors[0]!.message).toMatch(/13 integer digits/);
  });

  it('refuses an NF-e unit price (amount ÷ quantity) past the 11 integer digits of vUnCom', () => {
    expect(nfeErrors(pricedLine('1', '9999999999999.99'))).toEqual(
      outOfRange({ field: 'items[0].amount', expected: `a unit price of at most ${MAX_UNIT_PRICE}` }),
    );
    // The same amount over 1000 units fits, and so does an 11-digit unit price.
    expect(nfeErrors(pricedLine('1000', '9999999999999.99'))).toEqual([]);
    expect(nfeErrors(pricedLine('1', '99999999999.99'))).toEqual([]);
  });

  it('refuses NF-e totals past 13 integer digits, with the total and the limit in the error', () => {
    const line = pricedLine('1000', '9999999999999.99');
    const errors = nfeErrors(line, line);
    expect(errors).toEqual(outOfRange({ field: 'items', expected: `totals of at most ${MAX_DOCUMENT_AMOUNT}` }));
    expect(errors[0]!.message).toMatch(/ICMSTot\.\w+ would be 1\d{13}\.\d{2}, more than 9999999999999\.99/);
  });

  it('refuses an NFS-e whose items add up past what the invoice record holds, accepts one at the limit', () => {
    const line = { ...nfseItem(), amount: MAX_DOCUMENT_AMOUNT };
    expect(errorsOf(sampleNfseRequest({ items: [line] }))).toEqual([]);
    expect(errorsOf(sampleNfseRequest({ items: [line, { ...nfseItem(), amount: '0.01' }] }))).toEqual(
      outOfRange({ field: 'items', received: '10000000000000.00' }),
    );
  });
});
