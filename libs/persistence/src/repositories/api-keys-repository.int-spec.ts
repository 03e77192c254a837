import type { PrismaClient } from '../generated/prisma/client.js';
import { ActiveKeyLimitError, CompanyNotFoundError } from '../errors.js';
import { newCompanyInput, testPrismaClient } from '../testing/test-database.js';
import { hashApiKey, parseApiKey } from './api-key-format.js';
import { ApiKeysRepository } from './api-keys-repository.js';
import { CompaniesRepository } from './companies-repository.js';

describe('ApiKeysRepository (PostgreSQL)', () => {
  let prisma: PrismaClient;
  let keys: ApiKeysRepository;
  let companies: CompaniesRepository;

  beforeAll(() => {
    prisma = testPrismaClient({ poolMax: 8 });
    keys = new ApiKeysRepository(prisma);
    companies = new CompaniesRepository(prisma);
  });
  afterAll(() => prisma.$disconnect());

  const newCompanyId = async () => (await companies.create(newCompanyInput())).id;

  it('returns the key once and stores only the prefix and the SHA-256 of the whole key', async () => {
    const companyId = await newCompanyId();
    const { apiKey, secret } = await keys.create({ companyId, name: 'ERP', environment: 'homologation', context: 'api' });

    expect(secret).toMatch(/^talao_hml_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(apiKey.prefix).toBe(parseApiKey(secret)!.prefix);
    expect(apiKey.secretHash).toBe(hashApiKey(secret));
    const [row] = await prisma.$queryRaw<Record<string, unknown>[]>`SELECT * FROM api_keys WHERE id = ${apiKey.id}::uuid`;
    const secretPart = secret.slice(apiKey.prefix.length + 1);
    expect(JSON.stringify(row)).not.toContain(secretPart);
    expect(row).toMatchObject({ prefix: apiKey.prefix, secret_hash: hashApiKey(secret), context: 'api', environment: 'homologation' });
  });

  it('resolves a valid key to the key and its company, and refuses wrong, malformed and revoked keys', async () => {
    const companyId = await newCompanyId();
    const { apiKey, secret } = await keys.create({ companyId, name: 'prod', environment: 'production', context: 'sdk' });

    const resolved = await keys.resolve(secret);
    expect(resolved?.id).toBe(apiKey.id);
    expect(resolved?.company.id).toBe(companyId);
    expect(resolved?.environment).toBe('production');

    const lastChar = secret.at(-1) === 'A' ? 'B' : 'A';
    expect(await keys.resolve(secret.slice(0, -1) + lastChar)).toBeNull(); // right prefix, wrong secret
    expect(await keys.resolve(secret.replace('talao_prd_', 'talao_hml_'))).toBeNull(); // environment swapped
    expect(await keys.resolve('talao_prd_0000000000000000_' + 'a'.repeat(43))).toBeNull(); // unknown
    expect(await keys.resolve('not-a-key')).toBeNull();
    expect(await keys.resolve(secret + 'x')).toBeNull();

    expect(await keys.revoke(apiKey.id)).toBe(true);
    expect(await keys.resolve(secret)).toBeNull();
    expect(await keys.revoke(apiKey.id)).toBe(false); // already revoked
    expect(await keys.revoke('5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10')).toBe(false); // unknown
    expect(await keys.revoke('not-a-uuid')).toBe(false);
  });

  it('refreshes lastUsedAt at most about once a minute', async () => {
    const companyId = await newCompanyId();
    const { apiKey, secret } = await keys.create({ companyId, name: 'touch', environment: 'homologation', context: 'api' });
    expect(apiKey.lastUsedAt).toBeNull();

    const first = await keys.resolve(secret);
    expect(first?.lastUsedAt).toBeInstanceOf(Date);
    const stored = (await keys.findById(apiKey.id))!.lastUsedAt!;
    await keys.resolve(secret);
    expect((await keys.findById(apiKey.id))!.lastUsedAt).toEqual(stored); // no write within the minute

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await prisma.apiKey.update({ where: { id: apiKey.id }, data: { lastUsedAt: twoMinutesAgo } });
    await keys.resolve(secret);
    expect((await keys.findById(apiKey.id))!.lastUsedAt!.getTime()).toBeGreaterThan(twoMinutesAgo.getTime());
  });

  it('refuses a 4th active key, and accepts one again after a revocation', async () => {
    const companyId = await newCompanyId();
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await keys.create({ companyId, name: `k${i}`, environment: 'homologation', context: 'sdk' }));
    await expect(keys.create({ companyId, name: 'k4', environment: 'production', context: 'sdk' })).rejects.toBeInstanceOf(
      ActiveKeyLimitError,
    );

    await keys.revoke(created[0]!.apiKey.id);
    await expect(keys.create({ companyId, name: 'k4', environment: 'production', context: 'sdk' })).resolves.toHaveProperty('secret');
    const listed = await keys.listForCompany(companyId);
    expect(listed).toHaveLength(4);
    expect(listed.filter((k) => k.revokedAt === null)).toHaveLength(3);
  });

  it('keeps the limit under concurrent creation', async () => {
    const companyId = await newCompanyId();
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => keys.create({ companyId, name: `race${i}`, environment: 'homologation', context: 'api' })),
    );
    const fulfilled = attempts.filter((a) => a.status === 'fulfilled');
    const rejected = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(fulfilled).toHaveLength(3);
    expect(rejected).toHaveLength(3);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(ActiveKeyLimitError);
    expect(await prisma.apiKey.count({ where: { companyId, revokedAt: null } })).toBe(3);
  });

  it('refuses keys for a company that does not exist', async () => {
    await expect(
      keys.create({ companyId: '5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10', name: 'x', environment: 'homologation', context: 'api' }),
    ).rejects.toBeInstanceOf(CompanyNotFoundError);
    await expect(keys.create({ companyId: 'not-a-uuid', name: 'x', environment: 'homologation', context: 'api' })).rejects.toBeInstanceOf(
      CompanyNotFoundError,
    );
  });
});
