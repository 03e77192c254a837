// Ready-made issuers and requests for tests (this lib's and the XML builders'). Exported as `testing.*`.
import type { IssuerProfile, TaxRegime } from '../request/issuer-profile.js';

export function sampleIssuer(taxRegime: TaxRegime = 'normal', overrides: Partial<IssuerProfile> = {}): IssuerProfile {
  return {
    taxId: '11222333000181',
    legalName: 'TALAO DEMONSTRACAO LTDA',
    tradeName: 'Talao Demo',
    stateRegistration: '110042490114',
    municipalRegistration: '12345678',
    taxRegime,
    address: { street: 'Avenida Paulista', number: '1000', district: 'Bela Vista', cityCode: '3550308', state: 'SP', postalCode: '01310100', phone: '1133334444' },
    email: 'fiscal@talao.example',
    defaultServiceCode: '1.07',
    defaultOperationIndicator: '100301',
    ...overrides,
  };
}

export const SAMPLE_TECHNICAL_RESPONSIBLE = { cnpj: '11222333000181', contact: 'Equipe Talao', email: 'suporte@talao.example', phone: '1133334444' };

/** A one-item NF-e request, same state (CFOP 5102), CST 00 at 18%, PIS/COFINS by rate, IBS/CBS. */
export function sampleNfeRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    document_type: 'nfe',
    buyer: {
      tax_id: '12345678909',
      name: 'Maria da Silva',
      email: 'maria@example.com',
      address: { street: 'Rua Augusta', number: '500', district: 'Consolacao', city_code: '3550308', state: 'SP', postal_code: '01305000' },
    },
    items: [
      {
        description: 'Camiseta algodao',
        code: 'SKU-1',
        quantity: '2',
        unit_price: '49.90',
        product: { br: { ncm: '61091000', cfop: '5102', gtin: '7891000315507' } },
        tax: {
          icms: { cst: '00', origin: '0', rate: '18' },
          pis: { cst: '01', rate: '1.65' },
          cofins: { cst: '01', rate: '7.6' },
        },
        ibs_cbs: { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' },
      },
    ],
    ...overrides,
  };
}

/** A one-item NFS-e request (service 1.07). */
export function sampleNfseRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    document_type: 'nfse',
    buyer: { tax_id: '11222333000181', name: 'Cliente Servicos Ltda' },
    items: [{ description: 'Suporte tecnico', quantity: 1, amount: '1500.00', service_code: '1.07', ibs_cbs: { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' } }],
    ...overrides,
  };
}
