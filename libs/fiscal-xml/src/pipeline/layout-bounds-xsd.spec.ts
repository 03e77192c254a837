// The bounds fiscal-model checks at validation (documents/layout-bounds.ts) against the official schemas: what
// validation accepts at the bound is schema-valid, and the values the issuer's XSD check used to meet (issue 15,
// defect 11) are refused by validation before any number is reserved.
import { computeDpsDocument, computeNfeDocument, validateInvoiceRequest } from '@talao/fiscal-model';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12 } from '@talao/xml-signing';
import { SAMPLE_TECHNICAL_RESPONSIBLE, sampleIssuer, sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import { buildSignValidateDps, buildSignValidateNfe } from './sign-and-validate.js';

/** The line with product.quantity set (the request carries the quantity under product). */
const withQuantity = (line: Record<string, unknown>, quantity: string): Record<string, unknown> => ({
  ...line,
  product: { ...(line['product'] as Record<string, unknown>), quantity },
});

const NOW = new Date('2026-03-10T15:00:00Z');
const issuer = sampleIssuer('normal');
const signer = createSigner(
  loadPkcs12(createTestCertificateAuthority().issueA1({ taxId: '11222333000181', legalName: 'TALAO TESTE LTDA', password: 'x' }), 'x'),
);
const base = { environment: 'homologation' as const, series: 1, number: 1, issuedAt: NOW };

function nfe(items: Record<string, unknown>[]): 'refused' | string {
  const result = validateInvoiceRequest(sampleNfeRequest({ items }), issuer, { now: NOW });
  if (!result.ok) return 'refused';
  const document = computeNfeDocument(result.value, issuer, {
    ...base,
    invoiceId: 'bounds',
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
  });
  buildSignValidateNfe(document, signer); // throws XsdValidationError when the schema refuses it
  return document.total.ICMSTot.vNF;
}

function nfse(items: Record<string, unknown>[]): 'refused' | 'valid' {
  const result = validateInvoiceRequest(sampleNfseRequest({ items }), issuer, { now: NOW });
  if (!result.ok) return 'refused';
  buildSignValidateDps(computeDpsDocument(result.value, issuer, base), signer);
  return 'valid';
}

describe('layout bounds agree with the schemas', () => {
  const { unit_price: _price, ...nfeLine } = (sampleNfeRequest().items as Record<string, unknown>[])[0]!;
  const nfseLine = (sampleNfseRequest().items as Record<string, unknown>[])[0]!;

  it('NF-e: the largest unit price and line amount are schema-valid; one digit more is refused at validation', () => {
    expect(nfe([{ ...withQuantity(nfeLine, '1'), amount: '99999999999.99' }])).toMatch(/^\d+\.\d{2}$/);
    expect(nfe([{ ...withQuantity(nfeLine, '1000'), amount: '9999999999999.99' }])).toMatch(/^\d+\.\d{2}$/);
    expect(nfe([{ ...withQuantity(nfeLine, '1'), amount: '999999999999.99' }])).toBe('refused');
    expect(nfe([{ ...withQuantity(nfeLine, '1'), amount: '9999999999999.99' }])).toBe('refused');
    expect(nfe([{ ...withQuantity(nfeLine, '99999999999'), unit_price: '99999999999' }])).toBe('refused');
    expect(
      nfe([
        { ...withQuantity(nfeLine, '1000'), amount: '9999999999999.99' },
        { ...withQuantity(nfeLine, '1000'), amount: '9999999999999.99' },
      ]),
    ).toBe('refused');
  });

  it('NFS-e: a total at the record’s limit is schema-valid, past it refused', () => {
    expect(nfse([{ ...nfseLine, amount: '9999999999999.99' }])).toBe('valid');
    expect(
      nfse([
        { ...nfseLine, amount: '9999999999999.99' },
        { ...nfseLine, amount: '9999999999999.99' },
      ]),
    ).toBe('refused');
  });
});
