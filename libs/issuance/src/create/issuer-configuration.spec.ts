import type { IssuingCompany } from '../ports.js';
import { issuerProfileOf, issuingProblems, profileProblems } from './issuer-configuration.js';

const company: IssuingCompany = {
  cityCode: '3550308',
  complement: null,
  defaultNfeSeries: 1,
  defaultNfseSeries: 1,
  defaultNfseServiceCode: '1.07',
  approximateTaxes: { federal: '13.45', state: '0.00', municipal: '2.00' },
  district: 'Bela Vista',
  email: null,
  id: 'c1',
  legalName: 'EMPRESA LTDA',
  municipalRegistration: '12345678',
  number: '1000',
  overagePrice: null,
  phone: null,
  postalCode: '01310100',
  productionQuota: 50,
  state: 'SP',
  stateRegistration: '110042490114',
  street: 'Avenida Paulista',
  taxId: '11222333000181',
  taxRegime: 'normal',
  tradeName: null,
};
const now = new Date('2026-11-22T12:00:00Z');
const certificate = {
  subjectTaxId: company.taxId,
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2027-01-01T00:00:00Z'),
};

describe('issuer configuration', () => {
  it('a complete company has nothing missing', () => {
    expect(profileProblems(company)).toEqual([]);
    expect(issuingProblems(company, 'nfe', certificate, now)).toEqual([]);
    expect(issuingProblems(company, 'nfse', certificate, now)).toEqual([]);
    expect(issuerProfileOf(company)).toMatchObject({
      taxId: company.taxId,
      taxRegime: 'normal',
      address: { cityCode: '3550308', postalCode: '01310100' },
    });
  });

  it('names the tax regime and each missing address part', () => {
    expect(profileProblems({ ...company, taxRegime: null, street: null, postalCode: null })).toEqual([
      'tax regime',
      'address (street, zip_code)',
    ]);
  });

  it('names what each document type needs', () => {
    expect(issuingProblems({ ...company, stateRegistration: null }, 'nfe', certificate, now)).toEqual(['state registration']);
    expect(issuingProblems({ ...company, stateRegistration: null }, 'nfse', certificate, now)).toEqual([]);
    expect(issuingProblems({ ...company, municipalRegistration: null }, 'nfse', certificate, now)).toEqual(['municipal registration']);
    // The DPS carries the approximate taxes (pTotTrib) of everyone but a MEI; NF-e does not need them.
    const withoutTaxes = { ...company, approximateTaxes: null };
    expect(issuingProblems(withoutTaxes, 'nfse', certificate, now)).toEqual([
      'approximate_taxes (Lei 12.741/2012 percentages: federal, state, municipal)',
    ]);
    expect(issuingProblems({ ...withoutTaxes, taxRegime: 'mei' }, 'nfse', certificate, now)).toEqual([]);
    expect(issuingProblems(withoutTaxes, 'nfe', certificate, now)).toEqual([]);
    expect(issuerProfileOf(company).approximateTaxes).toEqual({ federal: '13.45', state: '0.00', municipal: '2.00' });
  });

  it('refuses a missing, expired, not yet valid or foreign certificate', () => {
    expect(issuingProblems(company, 'nfe', null, now)).toEqual(['certificate (no A1 certificate uploaded)']);
    expect(issuingProblems(company, 'nfe', { ...certificate, notAfter: now }, now)[0]).toMatch(/^certificate \(expired on /);
    expect(issuingProblems(company, 'nfe', { ...certificate, notBefore: new Date(now.getTime() + 1) }, now)[0]).toMatch(
      /^certificate \(valid only from /,
    );
    expect(issuingProblems(company, 'nfe', { ...certificate, subjectTaxId: '99888777000166' }, now)).toEqual([
      "certificate (its tax id differs from the company's)",
    ]);
  });
});
