import { CompanyAdminError } from './errors.js';
import { parseCreateCompanyInput } from './company-input.js';

const valid = {
  tax_id: '12.ABC.345/01DE-35',
  legal_name: 'Padaria Exemplo Ltda',
  tax_regime: 'simples_nacional',
  state_registration: '123456789',
  address: {
    street: 'Rua A',
    number: '10',
    neighborhood: 'Centro',
    city: 'Sao Paulo',
    city_code: '3550308',
    state: 'sp',
    zip_code: '01001000',
  },
  default_series: { nfe: 2 },
  default_nfse_service_code: '010701',
  plan: { name: 'pro', production_quota: 1000, overage_price: '0.25' },
};

function problems(input: unknown): { field: string; message: string }[] {
  try {
    parseCreateCompanyInput(input);
  } catch (error) {
    if (error instanceof CompanyAdminError && error.kind === 'validation') return [...error.problems];
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('parseCreateCompanyInput', () => {
  it('normalizes an alphanumeric CNPJ and fills the city from the IBGE table', () => {
    const company = parseCreateCompanyInput(valid);
    expect(company.taxId).toBe('12ABC34501DE35');
    expect(company.cityName).toBe('São Paulo');
    expect(company).toMatchObject({ district: 'Centro', postalCode: '01001000' });
    expect(company.state).toBe('SP');
    expect(company.defaultNfeSeries).toBe(2);
    expect(company.defaultNfseSeries).toBeUndefined();
    expect(company.plan).toEqual({ name: 'pro', productionQuota: 1000, overagePrice: '0.25' });
  });

  it("speaks the invoice request's address vocabulary: district and postal_code are unknown", () => {
    expect(problems({ ...valid, address: { ...valid.address, district: 'Centro', postal_code: '01001000' } })).toEqual([
      { field: 'address.district', message: 'is not a known field' },
      { field: 'address.postal_code', message: 'is not a known field' },
    ]);
  });

  it('refuses a CPF, a malformed CNPJ, an unknown city and a state that is not the city’s', () => {
    expect(problems({ ...valid, tax_id: '12345678909' })).toEqual([{ field: 'tax_id', message: expect.stringMatching(/must be a CNPJ/) }]);
    expect(problems({ ...valid, tax_id: '12ABC34501DE3X' })[0]?.field).toBe('tax_id');
    expect(problems({ ...valid, address: { ...valid.address, city_code: '3599999' } })).toEqual([
      { field: 'address.city_code', message: '3599999 is not a municipality in the IBGE table' },
    ]);
    expect(problems({ ...valid, address: { ...valid.address, state: 'RJ' } })).toEqual([
      { field: 'address.state', message: 'city 3550308 (São Paulo) is in SP, not RJ' },
    ]);
  });

  it('names missing and unknown fields, and refuses binary-float prices', () => {
    const found = problems({
      address: { city_code: '355030', state: 'SP' },
      plan: { production_quota: 10, overage_price: 0.25 },
      extra: 1,
    });
    const fields = found.map((p) => p.field).sort();
    expect(fields).toEqual(['address.city_code', 'extra', 'legal_name', 'plan.overage_price', 'tax_id']);
    expect(found.find((p) => p.field === 'extra')?.message).toBe('is not a known field');
    expect(found.find((p) => p.field === 'legal_name')?.message).toBe('is required');
  });

  it('refuses names and addresses the NF-e layout cannot carry, and control or bidi characters in labels', () => {
    const refusals = {
      legal_name: 'Padaria 🍞 Ltda',
      trade_name: 'Padaria\u202Eadtl',
      address: { ...valid.address, street: 'Rua\u0000A', district: 'Centro\u0007' },
      plan: { ...valid.plan, name: 'pro\u2066x' },
    };
    const found = problems({ ...valid, ...refusals });
    expect(found.map((p) => p.field).sort()).toEqual(['address.district', 'address.street', 'legal_name', 'plan.name', 'trade_name']);
    expect(found.find((p) => p.field === 'legal_name')?.message).toMatch(/printable Latin-1/);
    expect(found.find((p) => p.field === 'plan.name')?.message).toMatch(/control, formatting or bidi/);
    // Accents are Latin-1, and a plan name may be any printable text.
    expect(
      parseCreateCompanyInput({ ...valid, legal_name: 'Açaí & Pão Ltda', plan: { ...valid.plan, name: 'plano básico ✓' } }).legalName,
    ).toBe('Açaí & Pão Ltda');
    expect(problems({ ...valid, legal_name: 'A\uD800B' })[0]?.field).toBe('legal_name');
  });

  it('refuses a quota PostgreSQL cannot store as an integer', () => {
    expect(problems({ ...valid, plan: { ...valid.plan, production_quota: 2_147_483_648 } })).toEqual([
      { field: 'plan.production_quota', message: 'must be at most 2147483647' },
    ]);
    expect(parseCreateCompanyInput({ ...valid, plan: { ...valid.plan, production_quota: 2_147_483_647 } }).plan?.productionQuota).toBe(
      2_147_483_647,
    );
  });

  it('accepts a plan without overage and an unlimited quota', () => {
    expect(parseCreateCompanyInput({ ...valid, plan: { production_quota: null, overage_price: null } }).plan).toEqual({
      productionQuota: null,
      overagePrice: null,
    });
  });
});
