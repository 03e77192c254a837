import { jest } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { createTestCertificateAuthority, type TestCertificateAuthority } from '@talao/icp-test-ca';
import { garbageBag, pfxOfBags, withIterationCounts } from '@talao/xml-signing/testing';
import { companyRequest, startTestGateway, uniqueCnpj, type TestGateway } from '../testing/test-gateway.js';

// Boots, RSA key generation and PKCS#12 writing are slow on a loaded 2-core machine.
jest.setTimeout(90_000);

const DAY_MS = 86_400_000;

describe('admin: companies and certificates (real PostgreSQL)', () => {
  let gateway: TestGateway;
  let ca: TestCertificateAuthority;

  beforeAll(async () => {
    gateway = await startTestGateway();
    ca = createTestCertificateAuthority();
  });
  afterAll(async () => {
    await gateway.close();
  });

  async function createCompany(taxId = uniqueCnpj()): Promise<{ id: string; taxId: string }> {
    const response = await gateway.admin('POST', '/admin/v1/companies', companyRequest(taxId));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; tax_id: string };
    return { id: body.id, taxId: body.tax_id };
  }

  async function uploadCertificate(companyId: string, pkcs12: Buffer, password: string): Promise<Response> {
    return gateway.admin('PUT', `/admin/v1/companies/${companyId}/certificate`, { pkcs12_base64: pkcs12.toString('base64'), password });
  }

  it('creates a company (alphanumeric CNPJ, IBGE city) and reads it back', async () => {
    const taxId = uniqueCnpj();
    const formatted = `${taxId.slice(0, 2)}.${taxId.slice(2, 5)}.${taxId.slice(5, 8)}/${taxId.slice(8, 12)}-${taxId.slice(12)}`;
    const response = await gateway.admin('POST', '/admin/v1/companies', {
      ...companyRequest(formatted),
      address: { ...companyRequest().address, state: 'sp' },
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string };
    const read = await gateway.admin('GET', `/admin/v1/companies/${created.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      id: created.id,
      tax_id: taxId,
      address: {
        street: 'Rua Augusta',
        number: '100',
        neighborhood: 'Consolação',
        city: 'São Paulo',
        state: 'SP',
        zip_code: '01305000',
        city_code: '3550308',
      },
      plan: { name: 'pro', production_quota: 1000, overage_price: '0.25' },
      default_nfse_service_code: '010101',
    });
    expect((await gateway.admin('GET', '/admin/v1/companies/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('PATCH changes the profile fields named, keeps the others, and refuses what it does not change', async () => {
    const { id } = await createCompany();
    const patched = await gateway.admin('PATCH', `/admin/v1/companies/${id}`, {
      approximate_taxes: { federal: '13.45', state: '0', municipal: '2.5' },
      municipal_registration: '87654321',
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      id,
      approximate_taxes: { federal: '13.45', state: '0.00', municipal: '2.50' },
      municipal_registration: '87654321',
      legal_name: 'Empresa de Teste Ltda',
      default_nfse_service_code: '010101',
    });
    expect(await (await gateway.admin('GET', `/admin/v1/companies/${id}`)).json()).toMatchObject({ municipal_registration: '87654321' });
    const fieldsOf = async (response: Response) =>
      ((await response.json()) as { detail: { errors: { field: string }[] } }).detail.errors.map((e) => e.field);
    const badPercent = await gateway.admin('PATCH', `/admin/v1/companies/${id}`, {
      approximate_taxes: { federal: '100.01', state: '0', municipal: '0' },
    });
    expect(badPercent.status).toBe(422);
    expect(await fieldsOf(badPercent)).toEqual(['approximate_taxes.federal']);
    const taxId = await gateway.admin('PATCH', `/admin/v1/companies/${id}`, { tax_id: uniqueCnpj() });
    expect(taxId.status).toBe(422);
    expect(await fieldsOf(taxId)).toEqual(['tax_id']);
    expect((await gateway.admin('PATCH', `/admin/v1/companies/${id}`, {})).status).toBe(422);
    expect(
      (await gateway.admin('PATCH', '/admin/v1/companies/00000000-0000-4000-8000-000000000000', { email: 'a@b.example' })).status,
    ).toBe(404);
  });

  it('refuses an invalid company with 422 naming the fields, and a duplicate tax id with 409', async () => {
    const invalid = await gateway.admin('POST', '/admin/v1/companies', {
      ...companyRequest('123'),
      address: { ...companyRequest().address, city_code: '3304557', state: 'SP' },
    });
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as { detail: { message: string; errors: { field: string; message: string }[] } };
    expect(body.detail.errors).toEqual([
      { field: 'tax_id', message: expect.stringMatching(/must be a CNPJ/) },
      { field: 'address.state', message: 'city 3304557 (Rio de Janeiro) is in RJ, not SP' },
    ]);
    const unknownCity = await gateway.admin('POST', '/admin/v1/companies', {
      ...companyRequest(),
      address: { city_code: '9999999', state: 'SP' },
    });
    expect(unknownCity.status).toBe(422);

    const { taxId } = await createCompany();
    const duplicate = await gateway.admin('POST', '/admin/v1/companies', companyRequest(taxId));
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ detail: `A company with tax id ${taxId} already exists`, request_id: expect.any(String) });
  });

  it('refuses what PostgreSQL or the documents cannot hold with 422 naming the field (issue 15, defect 5)', async () => {
    const fieldsOf = async (response: Response) => {
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { errors: { field: string }[] } };
      return body.detail.errors.map((e) => e.field).sort();
    };
    const base = companyRequest();
    for (const [field, company] of [
      ['legal_name', { ...base, legal_name: 'Padaria\u0000 Ltda' }],
      ['trade_name', { ...base, trade_name: 'Padaria\ud800' }],
      ['address.street', { ...base, address: { ...base.address, street: 'Rua\u0000' } }],
      ['plan.name', { ...base, plan: { ...base.plan, name: 'pro\u0000' } }],
    ] as const) {
      expect(await fieldsOf(await gateway.admin('POST', '/admin/v1/companies', company))).toEqual([field]);
    }
    expect(
      await fieldsOf(await gateway.admin('POST', '/admin/v1/companies', { ...base, legal_name: 'Padaria 🍞', trade_name: 'a\u202Eb' })),
    ).toEqual(['legal_name', 'trade_name']);
    expect(
      await fieldsOf(
        await gateway.admin('POST', '/admin/v1/companies', { ...base, plan: { ...base.plan, production_quota: 2_147_483_648 } }),
      ),
    ).toEqual(['plan.production_quota']);
    const { id } = await createCompany();
    for (const name of ['key\u0000', 'key\u2067x']) {
      expect(
        await fieldsOf(await gateway.admin('POST', `/admin/v1/companies/${id}/api-keys`, { name, environment: 'homologation' })),
      ).toEqual(['name']);
    }
  });

  it('refuses hostile PKCS#12 files with 422 at once, the event loop free (issue 15, defects 5 and 10)', async () => {
    const { id, taxId } = await createCompany();
    // Issued by forge with its default count (2048), then every count set to 3 million.
    const issued = ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'p' });
    const slowHealth: number[] = [];
    const started = Date.now();
    const upload = uploadCertificate(id, withIterationCounts(issued, 3_000_000), 'p');
    // The probe is answered while the upload is handled: nothing holds the event loop for seconds.
    const health = await gateway.request('GET', '/healthz');
    slowHealth.push(Date.now() - started);
    const refused = await upload;
    expect(health.status).toBe(200);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/at most 10000 iterations; real A1 files use 2,048 or fewer/);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(slowHealth[0]).toBeLessThan(3_000);
    for (const bags of [[garbageBag('keyBag')], [garbageBag('certBag')]]) {
      const garbage = await uploadCertificate(id, pfxOfBags(bags), 'p');
      expect(garbage.status).toBe(422);
      expect(((await garbage.json()) as { detail: string }).detail).toBe('The file is not a PKCS#12 (.pfx/.p12) A1 certificate');
    }
    expect(await gateway.resources.prisma.certificate.count({ where: { companyId: id } })).toBe(0);
  });

  it('accepts a certificate of the test CA only where no ICP-Brasil bundle is configured, and says so; never a self-signed one', async () => {
    const { id, taxId } = await createCompany();
    const fromTestCa = await uploadCertificate(id, ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'p' }), 'p');
    expect(fromTestCa.status).toBe(200);
    expect(await fromTestCa.json()).toMatchObject({
      trust: 'test_ca',
      trust_note: expect.stringMatching(/test certificate authority .* homologation/),
    });

    // Self-signed, with the company's CNPJ in its CN: anybody can make one.
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
    const selfSigned = forge.pki.createCertificate();
    selfSigned.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
    selfSigned.serialNumber = '01';
    selfSigned.validity.notBefore = new Date(Date.now() - DAY_MS);
    selfSigned.validity.notAfter = new Date(Date.now() + 365 * DAY_MS);
    selfSigned.setSubject([{ shortName: 'CN', value: `EMPRESA DE TESTE LTDA:${taxId}` }]);
    selfSigned.setIssuer([{ shortName: 'CN', value: `EMPRESA DE TESTE LTDA:${taxId}` }]);
    selfSigned.sign(key, forge.md.sha256.create());
    const pfx = Buffer.from(
      forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [selfSigned], 'p', { algorithm: '3des' })).getBytes(),
      'binary',
    );
    const refused = await uploadCertificate(id, pfx, 'p');
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^The certificate is self-signed/);
  });

  it('with CERTIFICATE_TRUST_BUNDLE_FILE, accepts only chains to the bundle', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'trust-'));
    const other = createTestCertificateAuthority({ commonName: 'AC Outra' });
    writeFileSync(join(folder, 'ours.pem'), ca.caCertificatePem);
    writeFileSync(join(folder, 'other.pem'), other.caCertificatePem);
    const upload = async (bundle: string) => {
      const configured = await startTestGateway({ CERTIFICATE_TRUST_BUNDLE_FILE: join(folder, bundle) });
      try {
        const taxId = uniqueCnpj();
        const created = (await (await configured.admin('POST', '/admin/v1/companies', companyRequest(taxId))).json()) as { id: string };
        const pkcs12 = ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'p' });
        const response = await configured.admin('PUT', `/admin/v1/companies/${created.id}/certificate`, {
          pkcs12_base64: pkcs12.toString('base64'),
          password: 'p',
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      } finally {
        await configured.close();
      }
    };
    try {
      expect(await upload('ours.pem')).toMatchObject({ status: 200, body: { trust: 'icp_brasil' } });
      expect(await upload('other.pem')).toMatchObject({
        status: 422,
        body: { detail: expect.stringMatching(/does not chain to an ICP-Brasil certificate authority/) },
      });
      await expect(startTestGateway({ CERTIFICATE_TRUST_BUNDLE_FILE: join(folder, 'missing.pem') })).rejects.toThrow(
        /CERTIFICATE_TRUST_BUNDLE_FILE/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers a burst of uploads for one company 200 each, one certificate left active (found by the hostile suite)', async () => {
    const { id, taxId } = await createCompany();
    // At the iteration bound, so that reading each file holds the event loop as long as a file may.
    const issued = forge.pkcs12.pkcs12FromAsn1(
      forge.asn1.fromDer(
        forge.util.createBuffer(ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'p' }).toString('binary')),
      ),
      'p',
    );
    const key = issued.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!]![0]!.key!;
    const certificates = issued.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!]!.map((bag) => bag.cert!);
    const pkcs12 = Buffer.from(
      forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, certificates, 'p', { algorithm: '3des', count: 10_000 })).getBytes(),
      'binary',
    );
    const statuses = await Promise.all(
      Array.from({ length: 24 }, () => uploadCertificate(id, pkcs12, 'p').then((response) => response.status)),
    );
    expect(statuses).toEqual(Array.from({ length: 24 }, () => 200));
    expect(await gateway.resources.prisma.certificate.count({ where: { companyId: id, replacedAt: null } })).toBe(1);
  });

  it('stores a legacy RC2-40 certificate and answers its metadata, never the secret', async () => {
    const { id, taxId } = await createCompany();
    const pkcs12 = ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'segredo-123', legacyRc2: true });
    const response = await uploadCertificate(id, pkcs12, 'segredo-123');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('segredo-123');
    expect(text).not.toContain(pkcs12.toString('base64').slice(0, 40));
    const body = JSON.parse(text) as Record<string, string>;
    expect(body).toMatchObject({ company_id: id, subject_tax_id: taxId, serial_number: expect.stringMatching(/^[0-9A-F]+$/) });
    expect(new Date(body.not_after!).getTime()).toBeGreaterThan(Date.now());
    const row = await gateway.resources.prisma.certificate.findUniqueOrThrow({ where: { id: body.id! } });
    expect(Buffer.from(row.passwordEncrypted).toString('utf8')).not.toContain('segredo-123');
    expect(Buffer.from(row.pkcs12Encrypted).equals(pkcs12)).toBe(false);
  });

  it('refuses a wrong password, an expired or not-yet-valid certificate, and another company’s certificate', async () => {
    const { id, taxId } = await createCompany();
    const refusal = async (response: Response, detail: RegExp) => {
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ detail: expect.stringMatching(detail), request_id: expect.any(String) });
    };
    const good = ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'right' });
    await refusal(await uploadCertificate(id, good, 'wrong'), /^The password does not open this certificate$/);

    const expired = ca.issueA1({
      taxId,
      legalName: 'EMPRESA DE TESTE LTDA',
      password: 'p',
      notBefore: new Date(Date.now() - 400 * DAY_MS),
      notAfter: new Date(Date.now() - DAY_MS),
    });
    await refusal(await uploadCertificate(id, expired, 'p'), /^The certificate expired on /);

    const future = ca.issueA1({ taxId, legalName: 'EMPRESA DE TESTE LTDA', password: 'p', notBefore: new Date(Date.now() + 10 * DAY_MS) });
    await refusal(await uploadCertificate(id, future, 'p'), /^The certificate is not valid before /);

    const otherTaxId = uniqueCnpj();
    const foreign = ca.issueA1({ taxId: otherTaxId, legalName: 'OUTRA EMPRESA LTDA', password: 'p' });
    await refusal(await uploadCertificate(id, foreign, 'p'), new RegExp(`belongs to tax id ${otherTaxId}, not to this company`));

    await refusal(await uploadCertificate(id, Buffer.from('not a certificate'), 'p'), /not a PKCS#12/);
    const malformed = await gateway.admin('PUT', `/admin/v1/companies/${id}/certificate`, { pkcs12_base64: '***', password: 'p' });
    expect(malformed.status).toBe(422);
    const unknown = await uploadCertificate('00000000-0000-4000-8000-000000000000', good, 'right');
    expect(unknown.status).toBe(404);
    expect(await gateway.resources.prisma.certificate.count({ where: { companyId: id } })).toBe(0);
  });
});
