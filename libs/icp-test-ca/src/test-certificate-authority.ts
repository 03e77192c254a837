import { generateKeyPairSync, randomBytes, X509Certificate, createPrivateKey } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';
import { icpBrasilSubjectAltName } from './icp-brasil-subject-alt-name.js';
import { legacyRc2Pkcs12 } from './legacy-pkcs12.js';

export interface IssueA1Options {
  /** CNPJ (14, the first 12 may be letters) or CPF (11 digits). */
  taxId: string;
  legalName: string;
  password: string;
  notBefore?: Date;
  /** May lie in the past, to test expired certificates. */
  notAfter?: Date;
  /** Write the PKCS#12 the legacy way (certificates RC2-40, key 3DES), as many real A1 files are. */
  legacyRc2?: boolean;
}

export interface TestCertificateAuthorityPems {
  caCertificatePem: string;
  caPrivateKeyPem: string;
}

export interface TestCertificateAuthority extends TestCertificateAuthorityPems {
  /** An A1 certificate (PKCS#12) in the ICP-Brasil shape, chain included. */
  issueA1(options: IssueA1Options): Buffer;
  /** A TLS server certificate (serverAuth) for the given DNS names / IP addresses; the first is also the CN. */
  issueServerCertificate(hostnames: string[]): { keyPem: string; certificatePem: string };
}

const DAY_MS = 86_400_000;
const TAX_ID_SHAPE = /^(?:[0-9A-Z]{12}[0-9]{2}|[0-9]{11})$/;

function rsaKeyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; keyPem: string } {
  // node:crypto generates in native code (~50 ms); forge's pure-JS RSA keygen takes seconds.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
    publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    keyPem: privateKey,
  };
}

function serialNumber(): string {
  // Positive DER INTEGER: clear the top bit of the first byte.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

function newCertificate(
  publicKey: forge.pki.rsa.PublicKey,
  subject: forge.pki.CertificateField[],
  issuer: forge.pki.CertificateField[],
  notBefore: Date,
  notAfter: Date,
): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = publicKey;
  certificate.serialNumber = serialNumber();
  certificate.validity.notBefore = notBefore;
  certificate.validity.notAfter = notAfter;
  certificate.setSubject(subject);
  certificate.setIssuer(issuer);
  return certificate;
}

function createAuthority(
  caCertificate: forge.pki.Certificate,
  caKey: forge.pki.rsa.PrivateKey,
  pems: TestCertificateAuthorityPems,
): TestCertificateAuthority {
  const sign = (certificate: forge.pki.Certificate): void => certificate.sign(caKey, forge.md.sha256.create());
  return {
    ...pems,
    issueA1(options: IssueA1Options): Buffer {
      const taxId = options.taxId.toUpperCase();
      if (!TAX_ID_SHAPE.test(taxId)) throw new Error(`Not a CNPJ or CPF: ${options.taxId}`);
      const now = Date.now();
      const notBefore = options.notBefore ?? new Date(now - DAY_MS);
      const notAfter = options.notAfter ?? new Date(now + 365 * DAY_MS);
      const isCompany = taxId.length === 14;
      const keys = rsaKeyPair();
      const certificate = newCertificate(
        keys.publicKey,
        [
          { shortName: 'C', value: 'BR' },
          { shortName: 'O', value: 'ICP-Brasil' },
          { shortName: 'OU', value: 'Secretaria da Receita Federal do Brasil - RFB' },
          { shortName: 'OU', value: isCompany ? 'RFB e-CNPJ A1' : 'RFB e-CPF A1' },
          { shortName: 'OU', value: 'Talao test AR' },
          { shortName: 'CN', value: `${options.legalName}:${taxId}` },
        ],
        caCertificate.subject.attributes,
        notBefore,
        notAfter,
      );
      certificate.setExtensions([
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true, keyEncipherment: true },
        { name: 'extKeyUsage', clientAuth: true, emailProtection: true },
        { name: 'subjectKeyIdentifier' },
        { id: '2.5.29.17', name: 'subjectAltName', value: icpBrasilSubjectAltName(taxId, options.legalName) },
      ]);
      sign(certificate);
      const friendlyName = `${options.legalName}:${taxId}`;
      if (options.legacyRc2) return legacyRc2Pkcs12(keys.privateKey, [certificate, caCertificate], options.password, friendlyName);
      const pfx = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [certificate, caCertificate], options.password, {
        algorithm: 'aes256',
        friendlyName,
      });
      return Buffer.from(forge.asn1.toDer(pfx).getBytes(), 'binary');
    },
    issueServerCertificate(hostnames: string[]): { keyPem: string; certificatePem: string } {
      const [first] = hostnames;
      if (!first) throw new Error('issueServerCertificate needs at least one host name');
      const keys = rsaKeyPair();
      const now = Date.now();
      const certificate = newCertificate(
        keys.publicKey,
        [
          { shortName: 'C', value: 'BR' },
          { shortName: 'O', value: 'Talao test authorizer' },
          { shortName: 'CN', value: first },
        ],
        caCertificate.subject.attributes,
        new Date(now - DAY_MS),
        new Date(now + 825 * DAY_MS),
      );
      certificate.setExtensions([
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectKeyIdentifier' },
        {
          name: 'subjectAltName',
          altNames: hostnames.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })),
        },
      ]);
      sign(certificate);
      return { keyPem: keys.keyPem, certificatePem: forge.pki.certificateToPem(certificate) };
    },
  };
}

/** A fresh authority (new RSA-2048 key, self-signed, valid 10 years). */
export function createTestCertificateAuthority(options: { commonName?: string } = {}): TestCertificateAuthority {
  const keys = rsaKeyPair();
  const now = Date.now();
  const subject: forge.pki.CertificateField[] = [
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'ICP-Brasil' },
    { shortName: 'OU', value: 'Talao test certificate authority - not for production' },
    { shortName: 'CN', value: options.commonName ?? 'Talao Test AC ICP-Brasil' },
  ];
  const certificate = newCertificate(keys.publicKey, subject, subject, new Date(now - DAY_MS), new Date(now + 3650 * DAY_MS));
  certificate.setExtensions([
    { name: 'basicConstraints', critical: true, cA: true },
    { name: 'keyUsage', critical: true, keyCertSign: true, cRLSign: true, digitalSignature: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return createAuthority(certificate, keys.privateKey, {
    caCertificatePem: forge.pki.certificateToPem(certificate),
    caPrivateKeyPem: keys.keyPem,
  });
}

/** Rebuilds an authority from stored PEMs (the simulator persists its CA so clients keep trusting it). */
export function loadTestCertificateAuthority(pems: TestCertificateAuthorityPems): TestCertificateAuthority {
  const caCertificate = forge.pki.certificateFromPem(pems.caCertificatePem);
  // Accept any PEM key form node:crypto reads (PKCS#1, PKCS#8) by normalising through it.
  const keyPem = createPrivateKey(pems.caPrivateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
  if (!new X509Certificate(pems.caCertificatePem).checkPrivateKey(createPrivateKey(keyPem))) {
    throw new Error('The CA private key does not match the CA certificate');
  }
  const caKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  return createAuthority(caCertificate, caKey, pems);
}
