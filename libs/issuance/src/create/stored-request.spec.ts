import { sampleIssuer, sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { validateInvoiceRequest } from '@talao/fiscal-model';
import { requestBodyOf, storedRequest, validatedRequestOf } from './stored-request.js';

const NOW = new Date('2026-03-10T15:00:00Z');
const issuer = sampleIssuer('simples_nacional');

function validated(body: Record<string, unknown>) {
  const result = validateInvoiceRequest(body, issuer, { now: NOW });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('storedRequest', () => {
  it('stores an NFS-e body without what it ignores (product.br, unit, barcode, code), keeping product.quantity', () => {
    const body = sampleNfseRequest({
      number: '12',
      items: [
        {
          description: 'Hora tecnica',
          unit_price: '100',
          service_code: '1.07',
          product: { quantity: '3', unit: 'H', barcode: '7891000315507', br: { ncm: '00000000', cfop: '5933' } },
        },
      ],
    });
    const stored = JSON.parse(JSON.stringify(storedRequest(body, validated(body)))) as unknown;
    expect(stored).toMatchObject({
      body: { items: [{ description: 'Hora tecnica', unit_price: '100', service_code: '1.07', product: { quantity: '3' } }] },
    });
    expect(JSON.stringify(stored)).not.toContain('cfop');
    expect(validatedRequestOf(stored).items[0]).toMatchObject({ quantity: '3', gross: '300.00' });
    // a reissue validates the stored body again, without the number the first attempt used
    const again = requestBodyOf(stored);
    expect(again).not.toHaveProperty('number');
    expect(validated(again).items[0]!.gross).toBe('300.00');
  });

  it('stores an NF-e body as received', () => {
    const body = sampleNfeRequest();
    const nfeIssuer = sampleIssuer('normal');
    const result = validateInvoiceRequest(body, nfeIssuer, { now: NOW });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(storedRequest(body, result.value).body).toEqual(body);
  });
});
