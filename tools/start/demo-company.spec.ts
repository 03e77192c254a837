import { parseCreateCompanyInput } from '@talao/company-admin';
import { DEMO_COMPANY } from './demo-company.mjs';

describe('the demo company', () => {
  it("is a valid admin API company body, its address in the invoice request's vocabulary", () => {
    const company = parseCreateCompanyInput(DEMO_COMPANY);
    expect(company).toMatchObject({
      taxId: '45812736000100',
      district: 'Bela Vista',
      postalCode: '01310100',
      cityCode: '3550308',
      cityName: 'São Paulo',
      state: 'SP',
    });
  });
});
