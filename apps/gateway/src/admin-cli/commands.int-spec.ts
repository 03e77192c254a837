import { jest } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CompanyAdminError, type CompanyAdminPorts } from '@talao/company-admin';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { ApiKeysRepository, CertificateVault, CertificatesRepository, CompaniesRepository, createPrismaClient } from '@talao/persistence';
import { parseArguments, UsageError } from './arguments.js';
import { runCommand } from './commands.js';
import { companyRequest, uniqueCnpj } from '../testing/test-gateway.js';

// Boots, RSA key generation and PKCS#12 writing are slow on a loaded 2-core machine.
jest.setTimeout(30_000);

describe('admin CLI commands over the real database', () => {
  const prisma = createPrismaClient(process.env.DATABASE_URL!);
  const ports: CompanyAdminPorts = {
    companies: new CompaniesRepository(prisma),
    apiKeys: new ApiKeysRepository(prisma),
    certificates: new CertificatesRepository(prisma, new CertificateVault(randomBytes(32).toString('base64'))),
  };
  let dir: string;
  const run = (...argv: string[]) => runCommand(ports, parseArguments(argv), {});

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'talao-admin-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await prisma.$disconnect();
  });

  it('creates a company from flags, sets its certificate, manages its keys', async () => {
    const taxId = uniqueCnpj();
    const company = (await run(
      'create-company',
      '--json',
      JSON.stringify({ ...companyRequest(taxId), plan: undefined }),
      '--legal-name',
      'Via Flags Ltda',
      '--production-quota',
      'unlimited',
    )) as { id: string; legal_name: string; plan: { production_quota: number | null } };
    expect(company.legal_name).toBe('Via Flags Ltda');
    expect(company.plan.production_quota).toBeNull();
    const updated = await run(
      'update-company',
      '--company',
      company.id,
      '--approximate-taxes',
      '13.45,0,2',
      '--email',
      'fiscal@via.example',
    );
    expect(updated).toMatchObject({
      legal_name: 'Via Flags Ltda',
      email: 'fiscal@via.example',
      approximate_taxes: { federal: '13.45', state: '0.00', municipal: '2.00' },
    });
    await expect(run('update-company', '--company', company.id, '--city-code', '3304557')).rejects.toMatchObject({ kind: 'validation' });

    const file = path.join(dir, 'a1.pfx');
    await writeFile(
      file,
      createTestCertificateAuthority().issueA1({ taxId, legalName: 'VIA FLAGS LTDA', password: 'pw', legacyRc2: true }),
    );
    const certificate = (await run('set-certificate', '--company', company.id, '--file', file, '--password', 'pw')) as {
      subject_tax_id: string;
    };
    expect(certificate.subject_tax_id).toBe(taxId);

    const key = (await run(
      'create-api-key',
      '--company',
      company.id,
      '--name',
      'cli',
      '--environment',
      'production',
      '--context',
      'api',
    )) as {
      id: string;
      key: string;
    };
    expect(key.key).toMatch(/^talao_prd_/);
    const listed = (await run('list-api-keys', '--company', company.id)) as { id: string; revoked_at: string | null }[];
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    expect(await run('revoke-api-key', key.id)).toEqual({ id: key.id, revoked: true });
    await expect(run('revoke-api-key', '--id', key.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('reports refusals by kind and usage mistakes apart', async () => {
    const refused = await run('create-company', '--tax-id', 'nope').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CompanyAdminError);
    expect((refused as CompanyAdminError).kind).toBe('validation');
    await expect(run('get-company')).rejects.toBeInstanceOf(UsageError);
    await expect(run('fly-away')).rejects.toThrow('unknown command fly-away');
  });
});
