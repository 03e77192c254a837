// Examples of the account routes (GET /me, GET /companies/{company_id}), named as invoice-examples.ts explains: a
// parameter example and the response example of the same name go together. The company example is the presenter's own
// output for an example company, so it has the shape the route answers.
import { presentCompany, type CompanyRecord } from '@talao/company-admin';
import { EXAMPLE_IDS } from '../invoices/invoice-examples.js';

const EXAMPLE_COMPANY: CompanyRecord = {
  id: EXAMPLE_IDS.companyId,
  taxId: '11222333000181',
  stateRegistration: '110042490114',
  municipalRegistration: '12345678',
  legalName: 'TALAO DEMONSTRACAO LTDA',
  tradeName: 'Talao Demo',
  taxRegime: 'normal',
  street: 'Avenida Paulista',
  number: '1000',
  complement: null,
  district: 'Bela Vista',
  cityCode: '3550308',
  cityName: 'Sao Paulo',
  state: 'SP',
  postalCode: '01310100',
  phone: '1133334444',
  email: 'fiscal@talao.example',
  defaultNfeSeries: 1,
  defaultNfseSeries: 1,
  defaultNfseServiceCode: '1.07',
  approximateTaxes: { federal: '13.45', state: '0.00', municipal: '2.00' },
  planName: 'trial',
  productionQuota: 50,
  overagePrice: null,
  createdAt: new Date('2026-11-01T12:00:00.000Z'),
  updatedAt: new Date('2026-11-01T12:00:00.000Z'),
};

export const ME_EXAMPLES = {
  me: {
    summary: 'A homologation key',
    value: {
      company: { id: EXAMPLE_IDS.companyId, tax_id: '11222333000181', name: 'Talao Demo' },
      environment: 'homologation',
      api_key: { id: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d', name: 'erp', prefix: 'talao_hml_1a2b3c4d5e6f7a8b' },
    },
  },
};

export const COMPANY_PARAMETER_EXAMPLES = {
  own: { summary: 'Your company (the one behind the key)', value: EXAMPLE_IDS.companyId },
  unknown: { summary: 'Any other company: 404', value: EXAMPLE_IDS.unknownCompanyId },
};

export const COMPANY_EXAMPLES = { own: { summary: 'The company profile', value: presentCompany(EXAMPLE_COMPANY) } };

export const COMPANY_NOT_FOUND_EXAMPLES = {
  unknown: {
    summary: 'Another company, or none',
    value: { detail: 'Company not found', request_id: 'b1f0c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d' },
  },
};
