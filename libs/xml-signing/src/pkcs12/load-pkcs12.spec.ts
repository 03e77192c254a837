import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { createTestCertificateAuthority, loadTestCertificateAuthority } from '@talao/icp-test-ca';
import { CertificateError } from './certificate-error.js';
import { loadPkcs12, MAX_KDF_ITERATIONS } from './load-pkcs12.js';
import { garbageBag, pfxOfBags, withIterationCounts } from '../testing/hostile-pkcs12.js';

const ca = createTestCertificateAuthority();
// forge accepts null for "no certificate bag" although its types do not say so.
const NO_CERTIFICATES = null as unknown as forge.pki.Certificate[];

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return error instanceof CertificateError ? error.code : `not a CertificateError: ${String(error)}`;
  }
  return 'no error';
}

function expectCertificateError(action: () => unknown, code: CertificateError['code']): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(CertificateError);
    expect((error as CertificateError).code).toBe(code);
    return;
  }
  throw new Error(`expected CertificateError ${code}`);
}

/** What `openssl pkcs12 -info` says about the encryption, as an independent look at the file. */
function opensslDescription(pfx: Buffer, password: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'pkcs12-'));
  try {
    const file = join(folder, 'a1.pfx');
    writeFileSync(file, pfx);
    // openssl prints the algorithm lines on stderr.
    const result = spawnSync('openssl', ['pkcs12', '-info', '-noout', '-legacy', '-in', file, '-passin', `pass:${password}`], {
      encoding: 'utf8',
    });
    return `${result.stdout}${result.stderr}`;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('loadPkcs12', () => {
  it('round-trips an A1 issued by the test CA: key matches certificate, chain and names are filled', () => {
    const pfx = ca.issueA1({ taxId: '12345678000195', legalName: 'EMPRESA TESTE LTDA', password: 's3cret' });
    const a1 = loadPkcs12(pfx, 's3cret');

    const certificate = new X509Certificate(a1.certificatePem);
    expect(certificate.checkPrivateKey(createPrivateKey(a1.privateKeyPem))).toBe(true);
    expect(Buffer.from(a1.certificateBase64, 'base64').equals(certificate.raw)).toBe(true);
    expect(a1.chainPem).toHaveLength(1);
    expect(new X509Certificate(a1.chainPem[0]!).subject).toBe(new X509Certificate(ca.caCertificatePem).subject);
    expect(a1.subjectName).toMatch(/^CN=EMPRESA TESTE LTDA:12345678000195, OU=/);
    expect(a1.subjectName).toMatch(/C=BR$/);
    expect(a1.issuerName).toMatch(/^CN=Talao Test AC ICP-Brasil/);
    expect(a1.serialNumber).toMatch(/^[0-9A-F]+$/);
    expect(a1.notBefore.getTime()).toBeLessThan(Date.now());
    expect(a1.notAfter.getTime()).toBeGreaterThan(Date.now());
    expect(a1.taxId).toBe('12345678000195');
    // The key really signs: node:crypto accepts the PEM as is.
    const publicKey = createPublicKey(a1.certificatePem);
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('refuses a wrong password with WRONG_PASSWORD', () => {
    const pfx = ca.issueA1({ taxId: '12345678000195', legalName: 'EMPRESA', password: 'right' });
    expectCertificateError(() => loadPkcs12(pfx, 'wrong'), 'WRONG_PASSWORD');
  });

  it('reads a legacy RC2-40 file (which OpenSSL 3 only opens with -legacy)', () => {
    const pfx = ca.issueA1({ taxId: '11222333000181', legalName: 'LEGADO SA', password: 'old', legacyRc2: true });
    expect(opensslDescription(pfx, 'old')).toMatch(/pbeWithSHA1And40BitRC2-CBC/);
    const a1 = loadPkcs12(pfx, 'old');
    expect(a1.taxId).toBe('11222333000181');
    expect(new X509Certificate(a1.certificatePem).checkPrivateKey(createPrivateKey(a1.privateKeyPem))).toBe(true);
    expectCertificateError(() => loadPkcs12(pfx, 'new'), 'WRONG_PASSWORD');
  });

  it('extracts an alphanumeric CNPJ and a CPF from the subjectAltName', () => {
    const company = loadPkcs12(ca.issueA1({ taxId: '12ABC34501DE35', legalName: 'ALFA', password: 'p' }), 'p');
    expect(company.taxId).toBe('12ABC34501DE35');
    const person = loadPkcs12(ca.issueA1({ taxId: '52998224725', legalName: 'FULANO', password: 'p' }), 'p');
    expect(person.taxId).toBe('52998224725');
  });

  it('falls back to the "NAME:CNPJ" suffix of the CN when the SAN has no ICP-Brasil entry', () => {
    const keys = forge.pki.rsa.generateKeyPair({ bits: 512, e: 0x10001 });
    const certificate = forge.pki.createCertificate();
    certificate.publicKey = keys.publicKey;
    certificate.serialNumber = '01';
    certificate.validity.notBefore = new Date(Date.now() - 1000);
    certificate.validity.notAfter = new Date(Date.now() + 86_400_000);
    certificate.setSubject([{ shortName: 'CN', value: 'SEM SAN LTDA:12ABC34501DE35' }]);
    certificate.setIssuer([{ shortName: 'CN', value: 'SEM SAN LTDA:12ABC34501DE35' }]);
    certificate.sign(keys.privateKey, forge.md.sha256.create());
    const pfx = Buffer.from(
      forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(keys.privateKey, [certificate], 'p', { algorithm: '3des' })).getBytes(),
      'binary',
    );
    expect(loadPkcs12(pfx, 'p').taxId).toBe('12ABC34501DE35');
  });

  it('keeps expired certificates readable and reports their validity', () => {
    const pfx = ca.issueA1({
      taxId: '12345678000195',
      legalName: 'VENCIDA',
      password: 'p',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-01-01T00:00:00Z'),
    });
    expect(loadPkcs12(pfx, 'p').notAfter.toISOString()).toBe('2021-01-01T00:00:00.000Z');
  });

  it('picks the certificate matching the private key when the file holds several', () => {
    const own = loadPkcs12(ca.issueA1({ taxId: '12345678000195', legalName: 'DONA', password: 'p' }), 'p');
    const stranger = loadPkcs12(ca.issueA1({ taxId: '99888777000166', legalName: 'OUTRA', password: 'p' }), 'p');
    const key = forge.pki.privateKeyFromPem(own.privateKeyPem);
    // The stranger's certificate comes first: order in the file must not decide.
    const certificates = [stranger.certificatePem, ca.caCertificatePem, own.certificatePem].map((pem) => forge.pki.certificateFromPem(pem));
    const pfx = Buffer.from(
      forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, certificates, 'p', { algorithm: '3des' })).getBytes(),
      'binary',
    );
    const loaded = loadPkcs12(pfx, 'p');
    expect(loaded.taxId).toBe('12345678000195');
    expect(loaded.chainPem).toHaveLength(2);
    // The issuer is ordered first in the chain.
    expect(new X509Certificate(loaded.chainPem[0]!).subject).toBe(new X509Certificate(ca.caCertificatePem).subject);
  });

  it('reports garbage, a key-only file and a certificate-only file precisely', () => {
    expectCertificateError(() => loadPkcs12(Buffer.from('not a pfx'), 'p'), 'INVALID_PKCS12');
    expectCertificateError(() => loadPkcs12(Buffer.alloc(0), 'p'), 'INVALID_PKCS12');
    const own = loadPkcs12(ca.issueA1({ taxId: '12345678000195', legalName: 'X', password: 'p' }), 'p');
    const keyOnly = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(own.privateKeyPem), NO_CERTIFICATES, 'p', { algorithm: '3des' });
    expectCertificateError(() => loadPkcs12(Buffer.from(forge.asn1.toDer(keyOnly).getBytes(), 'binary'), 'p'), 'NO_CERTIFICATE');
    const certOnly = forge.pkcs12.toPkcs12Asn1(null, [forge.pki.certificateFromPem(own.certificatePem)], 'p');
    expectCertificateError(() => loadPkcs12(Buffer.from(forge.asn1.toDer(certOnly).getBytes(), 'binary'), 'p'), 'NO_PRIVATE_KEY');
  });

  it(`bounds key derivation at ${MAX_KDF_ITERATIONS} iterations before running it (MAC and encrypted parts)`, () => {
    const own = loadPkcs12(ca.issueA1({ taxId: '12345678000195', legalName: 'X', password: 'p' }), 'p');
    const key = forge.pki.privateKeyFromPem(own.privateKeyPem);
    const certificate = forge.pki.certificateFromPem(own.certificatePem);
    const build = (options: Record<string, unknown>) =>
      Buffer.from(
        forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [certificate], 'p', { algorithm: '3des', count: 2048, ...options })).getBytes(),
        'binary',
      );
    // The files as built (2048 iterations, as real A1 files) load.
    expect(loadPkcs12(build({}), 'p').taxId).toBe('12345678000195');
    expect(loadPkcs12(build({ useMac: false, algorithm: 'aes256' }), 'p').taxId).toBe('12345678000195');
    for (const [label, pfx] of [
      ['MAC of 3 million iterations', withIterationCounts(build({}), 3_000_000)],
      ['shrouded key (PKCS#12 PBE) of 2^31 − 1 iterations, no MAC', withIterationCounts(build({ useMac: false }), 2 ** 31 - 1)],
      [
        'shrouded key (PBES2) of 2^31 − 1 iterations, no MAC',
        withIterationCounts(build({ useMac: false, algorithm: 'aes256' }), 2 ** 31 - 1),
      ],
      ['just past the bound', withIterationCounts(build({}), MAX_KDF_ITERATIONS + 1)],
    ] as const) {
      const started = performance.now();
      expect({ label, code: codeOf(() => loadPkcs12(pfx, 'p')) }).toEqual({ label, code: 'KEY_DERIVATION_TOO_COSTLY' });
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('reports a garbage keyBag or certBag in a file without MAC as INVALID_PKCS12, never node:crypto’s own error', () => {
    expectCertificateError(() => loadPkcs12(pfxOfBags([garbageBag('keyBag')]), 'p'), 'INVALID_PKCS12');
    expectCertificateError(() => loadPkcs12(pfxOfBags([garbageBag('certBag')]), 'p'), 'INVALID_PKCS12');
    expectCertificateError(() => loadPkcs12(pfxOfBags([garbageBag('keyBag'), garbageBag('certBag')]), 'p'), 'INVALID_PKCS12');
  });

  it('rebuilds the CA from stored PEMs and keeps issuing under it', () => {
    const reloaded = loadTestCertificateAuthority({ caCertificatePem: ca.caCertificatePem, caPrivateKeyPem: ca.caPrivateKeyPem });
    const a1 = loadPkcs12(reloaded.issueA1({ taxId: '12345678000195', legalName: 'R', password: 'p' }), 'p');
    expect(new X509Certificate(a1.certificatePem).verify(new X509Certificate(ca.caCertificatePem).publicKey)).toBe(true);
    const server = reloaded.issueServerCertificate(['localhost', '127.0.0.1']);
    const serverCertificate = new X509Certificate(server.certificatePem);
    expect(serverCertificate.checkHost('localhost')).toBe('localhost');
    expect(serverCertificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(serverCertificate.checkPrivateKey(createPrivateKey(server.keyPem))).toBe(true);
  });
});
