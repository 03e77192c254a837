// Helpers for integration tests against the run's database (tools/test/run-tests.mjs sets DATABASE_URL to a fresh,
// migrated database). Other tests share that database, so fixtures are unique per call and nothing assumes emptiness.
import { randomInt } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { createPrismaClient } from '../prisma-client.js';
import type { NewCompany } from '../repositories/companies-repository.js';

export function testPrismaClient(options: { poolMax?: number } = {}): PrismaClient {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run integration tests through `npm test` (tools/test/run-tests.mjs)');
  return createPrismaClient(url, options);
}

/** A 14-digit tax id that is unique enough for one test run (collisions are retried by the caller's unique index). */
export function randomTaxId(): string {
  return Array.from({ length: 14 }, () => randomInt(10)).join('');
}

export function newCompanyInput(overrides: Partial<NewCompany> = {}): NewCompany {
  return {
    taxId: randomTaxId(),
    legalName: 'Padaria Exemplo Ltda',
    tradeName: 'Padaria Exemplo',
    taxRegime: 'simples_nacional',
    stateRegistration: '123456789',
    cityCode: '3550308',
    cityName: 'São Paulo',
    state: 'SP',
    ...overrides,
  };
}

/**
 * A company of its own for one spec file: created before its tests, deleted (rows cascading) after them. Call it
 * before the file's own afterAll that disconnects `prisma` (Jest runs afterAll hooks in the order they are declared).
 */
export function useScratchCompany(prisma: PrismaClient, legalName: string): () => string {
  let companyId: string | undefined;
  beforeAll(async () => {
    const data = { taxId: randomTaxId(), legalName, cityCode: '3550308', cityName: 'Sao Paulo', state: 'SP' };
    companyId = (await prisma.company.create({ data })).id;
  });
  afterAll(async () => {
    if (companyId) await prisma.company.delete({ where: { id: companyId } });
  });
  return () => {
    if (!companyId) throw new Error('the scratch company exists only inside tests and hooks');
    return companyId;
  };
}
