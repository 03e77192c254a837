// Test support: a throwaway RSA-2048 certificate and an xml-crypto signer with the NF-e profile (RSA-SHA1, C14N 1.0,
// enveloped, X509Certificate) and the NFS-e profile (RSA-SHA256, exclusive C14N). Used to check that built messages
// are schema-valid once signed, independently of libs/xml-signing, and as the xml-crypto baseline of the benchmark.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';

export interface TestCertificate {
  readonly privateKeyPem: string;
  readonly certificatePem: string;
}

export function createTestCertificate(commonName = 'TALAO TESTE:00000000000191'): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(forge.pki.privateKeyFromPem(privateKeyPem), forge.md.sha256.create());
  return { privateKeyPem, certificatePem: forge.pki.certificateToPem(cert) };
}

const NFE_PROFILE = {
  signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  c14n: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  digest: 'http://www.w3.org/2000/09/xmldsig#sha1',
};
const NFSE_PROFILE = {
  signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  c14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
};

function sign(xml: string, id: string, cert: TestCertificate, profile: typeof NFE_PROFILE): string {
  const signer = new SignedXml({
    privateKey: cert.privateKeyPem,
    publicCert: cert.certificatePem,
    signatureAlgorithm: profile.signature,
    canonicalizationAlgorithm: profile.c14n,
  });
  signer.addReference({
    xpath: `//*[@Id='${id}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', profile.c14n],
    digestAlgorithm: profile.digest,
  });
  signer.computeSignature(xml, { location: { reference: `//*[@Id='${id}']`, action: 'after' } });
  return signer.getSignedXml();
}

/** Signs the element with Id `id` (NF-e family profile), placing the Signature right after it. */
export function signWithXmlCrypto(xml: string, id: string, cert: TestCertificate): string {
  return sign(xml, id, cert, NFE_PROFILE);
}

export function signNfseWithXmlCrypto(xml: string, id: string, cert: TestCertificate): string {
  return sign(xml, id, cert, NFSE_PROFILE);
}

export function verifyWithXmlCrypto(xml: string, cert: TestCertificate): boolean {
  const verifier = new SignedXml({ publicCert: cert.certificatePem });
  const start = xml.indexOf('<Signature');
  verifier.loadSignature(xml.slice(start, xml.indexOf('</Signature>', start) + '</Signature>'.length));
  return verifier.checkSignature(xml);
}
