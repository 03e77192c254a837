import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { assessCertificateTrust, parseCertificateBundle, TEST_CA_SUBJECT_MARKER } from './certificate-trust.js';
import { loadPkcs12 } from './load-pkcs12.js';

const testCa = createTestCertificateAuthority();
const otherTestCa = createTestCertificateAuthority({ commonName: 'Another Test AC' });
const DAY_MS = 86_400_000;

function rsa() {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/** A certificate signed by `issuer` (itself when absent), a CA when `ca`. */
function certificate(
  cn: string,
  keys: ReturnType<typeof rsa>,
  options: { issuer?: { certificate: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey }; ca: boolean },
) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '0' + Math.floor(Math.random() * 1e9).toString(16);
  cert.validity.notBefore = new Date(Date.now() - DAY_MS);
  cert.validity.notAfter = new Date(Date.now() + 365 * DAY_MS);
  cert.setSubject([{ shortName: 'CN', value: cn }]);
  cert.setIssuer(options.issuer ? options.issuer.certificate.subject.attributes : [{ shortName: 'CN', value: cn }]);
  cert.setExtensions([{ name: 'basicConstraints', cA: options.ca, critical: true }]);
  cert.sign(options.issuer?.key ?? keys.key, forge.md.sha256.create());
  return cert;
}

function a1Of(key: forge.pki.rsa.PrivateKey, certificates: forge.pki.Certificate[]) {
  const der = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, certificates, 'p', { algorithm: '3des' })).getBytes();
  return loadPkcs12(Buffer.from(der, 'binary'), 'p');
}

describe('assessCertificateTrust', () => {
  const issued = loadPkcs12(testCa.issueA1({ taxId: '12345678000195', legalName: 'EMPRESA', password: 'p' }), 'p');

  it('without a trust bundle accepts the test CA and says so; the marker is the one @talao/icp-test-ca writes', () => {
    expect(assessCertificateTrust(issued, { anchorsPem: [] })).toEqual({
      trusted: true,
      anchor: 'test_ca',
      anchorName: expect.stringContaining(TEST_CA_SUBJECT_MARKER),
    });
  });

  it('with a trust bundle accepts only chains to it (the test CA included only when it is in the bundle)', () => {
    expect(assessCertificateTrust(issued, { anchorsPem: [testCa.caCertificatePem] })).toMatchObject({
      trusted: true,
      anchor: 'icp_brasil',
    });
    expect(assessCertificateTrust(issued, { anchorsPem: [otherTestCa.caCertificatePem] })).toEqual({
      trusted: false,
      reason: expect.stringMatching(/does not chain to an ICP-Brasil certificate authority of the configured trust bundle/),
    });
  });

  it('follows an intermediate of the file up to an anchor of the bundle that the file does not carry', () => {
    const rootKeys = rsa();
    const root = certificate('AC Raiz Exemplo', rootKeys, { ca: true });
    const intermediateKeys = rsa();
    const intermediate = certificate('AC Intermediaria', intermediateKeys, { ca: true, issuer: { certificate: root, key: rootKeys.key } });
    const leafKeys = rsa();
    const leaf = certificate('EMPRESA:12345678000195', leafKeys, {
      ca: false,
      issuer: { certificate: intermediate, key: intermediateKeys.key },
    });
    const a1 = a1Of(leafKeys.key, [leaf, intermediate]);
    expect(assessCertificateTrust(a1, { anchorsPem: [forge.pki.certificateToPem(root)] })).toMatchObject({
      trusted: true,
      anchor: 'icp_brasil',
      anchorName: 'CN=AC Raiz Exemplo',
    });
    // Without the bundle the chain ends at a root that is not the test CA.
    expect(assessCertificateTrust(a1, { anchorsPem: [] })).toMatchObject({ trusted: false });
    // An intermediate that is not a CA (basicConstraints cA false) breaks the chain.
    const fakeIntermediate = certificate('AC Intermediaria', intermediateKeys, {
      ca: false,
      issuer: { certificate: root, key: rootKeys.key },
    });
    expect(
      assessCertificateTrust(a1Of(leafKeys.key, [leaf, fakeIntermediate]), { anchorsPem: [forge.pki.certificateToPem(root)] }),
    ).toMatchObject({ trusted: false });
  });

  it('refuses a self-signed certificate in both modes, even one naming the test CA in its subject', () => {
    const keys = rsa();
    const selfSigned = certificate(`${TEST_CA_SUBJECT_MARKER}:12345678000195`, keys, { ca: false });
    const a1 = a1Of(keys.key, [selfSigned]);
    for (const anchorsPem of [[], [testCa.caCertificatePem]]) {
      expect(assessCertificateTrust(a1, { anchorsPem })).toEqual({
        trusted: false,
        reason: expect.stringMatching(/^The certificate is self-signed/),
      });
    }
  });

  it('reads a bundle of CA certificates and refuses one that holds none or a leaf', () => {
    expect(parseCertificateBundle(`${testCa.caCertificatePem}\n${otherTestCa.caCertificatePem}`)).toHaveLength(2);
    expect(() => parseCertificateBundle('nothing here')).toThrow(/no PEM certificate/);
    expect(() => parseCertificateBundle(issued.certificatePem)).toThrow(/is not a CA certificate/);
  });
});
