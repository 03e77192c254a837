// Ready-made issuers and requests for tests (this lib's and the XML builders'). Exported as `testing.*`.
import type { IssuerProfile, TaxRegime } from '../request/issuer-profile.js';
import { NFE_REQUEST_EXAMPLE, NFSE_REQUEST_EXAMPLE } from '../request/request-examples.js';

export function sampleIssuer(taxRegime: TaxRegime = 'normal', overrides: Partial<IssuerProfile> = {}): IssuerProfile {
  return {
    taxId: '11222333000181',
    legalName: 'TALAO DEMONSTRACAO LTDA',
    tradeName: 'Talao Demo',
    stateRegistration: '110042490114',
    municipalRegistration: '12345678',
    taxRegime,
    address: {
      street: 'Avenida Paulista',
      number: '1000',
      district: 'Bela Vista',
      cityCode: '3550308',
      state: 'SP',
      postalCode: '01310100',
      phone: '1133334444',
    },
    email: 'fiscal@talao.example',
    defaultServiceCode: '1.07',
    defaultOperationIndicator: '100301',
    approximateTaxes: { federal: '13.45', state: '0.00', municipal: '2.00' },
    ...overrides,
  };
}

export const SAMPLE_TECHNICAL_RESPONSIBLE = {
  cnpj: '11222333000181',
  contact: 'Equipe Talao',
  email: 'suporte@talao.example',
  phone: '1133334444',
};

/** NFE_REQUEST_EXAMPLE as a mutable copy, with top-level fields replaced by `overrides`. */
export function sampleNfeRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(NFE_REQUEST_EXAMPLE as unknown as Record<string, unknown>), ...overrides };
}

/** A recipient address in Rio de Janeiro (an interstate destination for the São Paulo sample issuer). */
export const SAMPLE_RJ_ADDRESS = {
  street: 'Rua do Catete',
  number: '90',
  neighborhood: 'Catete',
  city: 'Rio de Janeiro',
  state: 'RJ',
  zip_code: '22220000',
  city_code: '3304557',
} as const;

/** NFSE_REQUEST_EXAMPLE as a mutable copy, with top-level fields replaced by `overrides`. */
export function sampleNfseRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(NFSE_REQUEST_EXAMPLE as unknown as Record<string, unknown>), ...overrides };
}

export interface SampleNfeItemOptions {
  readonly description?: string;
  readonly unit_price?: unknown;
  readonly amount?: unknown;
  readonly quantity?: unknown;
  readonly cfop?: string;
  /** product.br.tax; default ICMS CST 00 at 18%, PIS/COFINS 01. */
  readonly tax?: Record<string, unknown>;
  /** product.br.ibs_cbs; default the sample group, `null` for none. */
  readonly ibs_cbs?: Record<string, unknown> | null;
  /** More product fields (unit, barcode, discount, freight, …). */
  readonly product?: Record<string, unknown>;
  /** More product.br fields (cest, origin, manufacturer_cnpj, …). */
  readonly br?: Record<string, unknown>;
}

export const SAMPLE_IBS_CBS = { cst: '000', classification: '000001', rate_state: '0.1', rate_city: '0', rate_federal: '0.9' };

/** One NF-e line in the request's shape: quantity, unit and the classification under product, taxes in product.br. */
export function sampleNfeItem(options: SampleNfeItemOptions = {}): Record<string, unknown> {
  const ibsCbs = options.ibs_cbs === undefined ? SAMPLE_IBS_CBS : options.ibs_cbs;
  return {
    description: options.description ?? 'Produto',
    ...(options.unit_price !== undefined ? { unit_price: options.unit_price } : {}),
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    product: {
      quantity: options.quantity ?? '10',
      unit: 'UN',
      ...options.product,
      br: {
        ncm: '61091000',
        cfop: options.cfop ?? '5102',
        tax: options.tax ?? {
          icms: { cst: '00', origin: '0', rate: '18' },
          pis: { cst: '01', rate: '1.65' },
          cofins: { cst: '01', rate: '7.6' },
        },
        ...(ibsCbs ? { ibs_cbs: ibsCbs } : {}),
        ...options.br,
      },
    },
  };
}
