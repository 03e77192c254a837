// The request-body examples of the OpenAPI document are requests the API accepts: validated by the same function
// POST /invoices validates with (NF-e for a normal-regime company, NFS-e for a Simples Nacional one).
import { validateInvoiceRequest } from '@talao/fiscal-model';
import { sampleIssuer } from '@talao/fiscal-model/testing';
import { NFE_EXAMPLE, NFSE_EXAMPLE } from './invoice-openapi.js';

const NOW = new Date('2026-11-22T12:00:00Z');

describe('OpenAPI request-body examples', () => {
  it.each([
    ['nfe', NFE_EXAMPLE, sampleIssuer('normal')],
    ['nfse', NFSE_EXAMPLE, sampleIssuer('simples_nacional')],
  ] as const)('%s validates', (_type, example, issuer) => {
    const result = validateInvoiceRequest(structuredClone(example), issuer, { now: NOW });
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});
