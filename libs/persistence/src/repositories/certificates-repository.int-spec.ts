import { randomBytes } from 'node:crypto';
import { CertificateVault } from '../certificate-vault.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { CompanyNotFoundError } from '../errors.js';
import { newCompanyInput, testPrismaClient } from '../testing/test-database.js';
import { CertificatesRepository, type CertificateMetadata } from './certificates-repository.js';
import { CompaniesRepository } from './companies-repository.js';

const metadata = (serialNumber: string): CertificateMetadata => ({
  subjectTaxId: '12345678000195',
  subjectName: 'PADARIA EXEMPLO LTDA:12345678000195',
  issuerName: 'AC Teste',
  serialNumber,
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2027-01-01T00:00:00Z'),
});

describe('CertificatesRepository (PostgreSQL)', () => {
  let prisma: PrismaClient;
  let certificates: CertificatesRepository;
  let companies: CompaniesRepository;
  const vault = new CertificateVault(randomBytes(32).toString('base64'));

  beforeAll(() => {
    prisma = testPrismaClient({ poolMax: 4 });
    certificates = new CertificatesRepository(prisma, vault);
    companies = new CompaniesRepository(prisma);
  });
  afterAll(() => prisma.$disconnect());

  it('stores the PKCS#12 and password encrypted, and returns them decrypted', async () => {
    const { id: companyId } = await companies.create(newCompanyInput());
    expect(await certificates.findActive(companyId)).toBeNull();

    const pkcs12 = randomBytes(2048);
    const { id } = await certificates.store(companyId, { pkcs12, password: 'senha-secreta-123', metadata: metadata('01') });
    const active = await certificates.findActive(companyId);
    expect(active).toEqual({ id, pkcs12, password: 'senha-secreta-123', metadata: metadata('01') });

    const row = await prisma.certificate.findUniqueOrThrow({ where: { id } });
    expect(Buffer.from(row.pkcs12Encrypted).includes(pkcs12.subarray(0, 64))).toBe(false);
    expect(Buffer.from(row.passwordEncrypted).toString('latin1')).not.toContain('senha-secreta-123');
    expect(row.keyVersion).toBe(vault.keyVersion);
  });

  it('replaces the previous certificate in the same transaction', async () => {
    const { id: companyId } = await companies.create(newCompanyInput());
    const first = await certificates.store(companyId, { pkcs12: randomBytes(100), password: 'a', metadata: metadata('01') });
    const second = await certificates.store(companyId, { pkcs12: randomBytes(100), password: 'b', metadata: metadata('02') });

    expect((await certificates.findActive(companyId))?.id).toBe(second.id);
    const rows = await prisma.certificate.findMany({ where: { companyId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.id, r.replacedAt === null])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
  });

  it('unseals any certificate by id, replaced ones included, and only with the right key', async () => {
    const { id: companyId } = await companies.create(newCompanyInput());
    const firstPkcs12 = randomBytes(100);
    const first = await certificates.store(companyId, { pkcs12: firstPkcs12, password: 'a', metadata: metadata('01') });
    const second = await certificates.store(companyId, { pkcs12: randomBytes(100), password: 'b', metadata: metadata('02') });

    const otherVault = new CertificatesRepository(prisma, new CertificateVault(randomBytes(32).toString('base64')));
    await expect(otherVault.unseal(second.id)).rejects.toThrow(/wrong key or tampered/);

    expect(await certificates.unseal(first.id)).toEqual({ pkcs12: firstPkcs12, password: 'a' });
    expect(await certificates.unseal('5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10')).toBeNull();
    expect(await certificates.unseal('not-a-uuid')).toBeNull();
  });

  it('leaves exactly one active certificate under concurrent uploads', async () => {
    const { id: companyId } = await companies.create(newCompanyInput());
    await Promise.all(
      ['1', '2', '3'].map((n) => certificates.store(companyId, { pkcs12: randomBytes(64), password: n, metadata: metadata(n) })),
    );
    expect(await prisma.certificate.count({ where: { companyId, replacedAt: null } })).toBe(1);
  });

  it('refuses a certificate for an unknown company, and cannot be read with another key', async () => {
    await expect(
      certificates.store('5b0c4a52-8b2b-4bd4-9d36-0d7b3f7a9f10', { pkcs12: randomBytes(8), password: 'x', metadata: metadata('9') }),
    ).rejects.toBeInstanceOf(CompanyNotFoundError);

    const { id: companyId } = await companies.create(newCompanyInput());
    await certificates.store(companyId, { pkcs12: randomBytes(64), password: 'x', metadata: metadata('5') });
    const otherVault = new CertificatesRepository(prisma, new CertificateVault(randomBytes(32).toString('base64')));
    await expect(otherVault.findActive(companyId)).rejects.toThrow(/wrong key or tampered/);
  });
});
