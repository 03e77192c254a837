import type { PrismaClient } from '../generated/prisma/client.js';
import { CompanyTaxIdTakenError } from '../errors.js';
import { newCompanyInput, testPrismaClient } from '../testing/test-database.js';
import { CompaniesRepository } from './companies-repository.js';

describe('CompaniesRepository (PostgreSQL)', () => {
  let prisma: PrismaClient;
  let companies: CompaniesRepository;

  beforeAll(() => {
    prisma = testPrismaClient({ poolMax: 2 });
    companies = new CompaniesRepository(prisma);
  });
  afterAll(() => prisma.$disconnect());

  it('creates, finds by id and tax id, and updates', async () => {
    const input = newCompanyInput({ overagePrice: '0.1500', productionQuota: 500 });
    const created = await companies.create(input);
    expect(created).toMatchObject({
      taxId: input.taxId,
      cityCode: '3550308',
      defaultNfeSeries: 1,
      planName: 'trial',
      productionQuota: 500,
    });
    expect(created.overagePrice?.toString()).toBe('0.15');

    expect((await companies.findById(created.id))?.taxId).toBe(input.taxId);
    expect((await companies.findByTaxId(input.taxId))?.id).toBe(created.id);

    const updated = await companies.update(created.id, { tradeName: 'Nova Padaria', defaultNfeSeries: 2, productionQuota: null });
    expect(updated).toMatchObject({ tradeName: 'Nova Padaria', defaultNfeSeries: 2, productionQuota: null });
  });

  it('answers null for unknown or malformed ids', async () => {
    expect(await companies.findById('5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10')).toBeNull();
    expect(await companies.findById('../etc/passwd')).toBeNull();
    expect(await companies.findByTaxId('00000000000000')).toBeNull();
    expect(await companies.update('5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10', { tradeName: 'x' })).toBeNull();
  });

  it('refuses a second company with the same tax id', async () => {
    const input = newCompanyInput();
    await companies.create(input);
    await expect(companies.create(newCompanyInput({ taxId: input.taxId }))).rejects.toBeInstanceOf(CompanyTaxIdTakenError);
  });
});
