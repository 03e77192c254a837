// The libxml2-based verifier against real signatures (SEFAZ-era documents signed by other software) and against
// xml-crypto (through @talao/xml-signing's verifier) on documents the project signs, valid and tampered.
import { createHash, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12, verifyXmlSignature } from '@talao/xml-signing';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { verifyEnvelopedSignature } from './enveloped-signature.js';
import { sampleCancellationEvent } from './sample-event.js';
import { NFE_FAMILY_ALGORITHMS, NFSE_NACIONAL_ALGORITHMS } from './signature-checks.js';

// apps/authorizer-sim/src/sefaz/ is four levels below the repository root.
const samples = fileURLToPath(new URL('../../../../fixtures/fiscal/samples/nfe/', import.meta.url));
const NFE = [...NFE_FAMILY_ALGORITHMS, 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315'];

describe('verifyEnvelopedSignature', () => {
  it.each([
    ['envEvento_cancelamento_110111_SIGNATURE_VALID.xml', 'ID1101113515030082260200012455001000992346109923465601'],
    ['envEvento_manifestacao_SIGNATURE_VALID.xml', 'ID2102103524030573092800014565001000000142107140047801'],
    ['procEventoNFe_cce_110110_SIGNATURE_VALID.xml', 'ID1101105318101102879300017355001000006670120427680001'],
    ['nfeProc_v3.10_SP_2018_SIGNATURE_VALID.xml', 'NFe35180174283375000142550010000234761182919182'],
  ])('verifies the real signature of %s', (file, id) => {
    const xml = readFileSync(`${samples}${file}`, 'utf8');
    expect(verifyEnvelopedSignature(xml, id, NFE).outcome).toBe('valid');
    expect(verifyEnvelopedSignature(xml.replace('<tpAmb>', '<tpAmb> '), id, NFE).outcome).not.toBe('valid');
  });

  it('agrees with xml-crypto on documents the project signs, and refuses another profile', () => {
    const ca = createTestCertificateAuthority();
    const certificate = loadPkcs12(ca.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA', password: 'x' }), 'x');
    const event = sampleCancellationEvent('Cancelamento por erro de digitacao');
    const signed = createSigner(certificate).signNfeFamily(event.xml, event.id);
    expect(verifyXmlSignature(signed).valid).toBe(true);
    expect(verifyEnvelopedSignature(signed, event.id, NFE)).toMatchObject({ outcome: 'valid' });
    const tampered = signed.replace('Cancelamento por erro', 'Cancelamento por outro');
    expect(verifyXmlSignature(tampered).valid).toBe(false);
    expect(verifyEnvelopedSignature(tampered, event.id, NFE)).toMatchObject({
      outcome: 'value',
      reason: 'Digest of the referenced element does not match',
    });
    const forgedValue = signed.replace(/<SignatureValue>./, (m) => `${m.slice(0, -1)}${m.endsWith('A') ? 'B' : 'A'}`);
    expect(verifyEnvelopedSignature(forgedValue, event.id, NFE)).toMatchObject({
      outcome: 'value',
      reason: 'SignatureValue does not match',
    });
    expect(verifyEnvelopedSignature(signed, event.id, NFSE_NACIONAL_ALGORITHMS)).toMatchObject({ outcome: 'profile' });
    const duplicatedId = signed.replace('</evento>', `<infEvento Id="${event.id}"/></evento>`);
    expect(verifyEnvelopedSignature(duplicatedId, event.id, NFE)).toMatchObject({ outcome: 'profile' });
  });

  it('verifies a Reference to a part of SignedInfo itself: the referenced element is not freed before SignedInfo is canonicalized', () => {
    const ca = createTestCertificateAuthority();
    const certificate = loadPkcs12(ca.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA', password: 'x' }), 'x');
    const [c14n, rsaSha1, sha1] = NFE_FAMILY_ALGORITHMS;
    const signatureXml = (digestValue: string, signatureValue: string) =>
      `<doc><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="${c14n}"/>` +
      `<SignatureMethod Id="part" Algorithm="${rsaSha1}"/><Reference URI="#part"><Transforms>` +
      `<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><Transform Algorithm="${c14n}"/></Transforms>` +
      `<DigestMethod Algorithm="${sha1}"/><DigestValue>${digestValue}</DigestValue></Reference></SignedInfo>` +
      `<SignatureValue>${signatureValue}</SignatureValue><KeyInfo><X509Data><X509Certificate>${certificate.certificateBase64}</X509Certificate></X509Data></KeyInfo></Signature></doc>`;
    const canonical = (xml: string, path: string) => {
      const document = XmlDocument.fromString(xml);
      try {
        const element = document.get(path, { ds: 'http://www.w3.org/2000/09/xmldsig#' }) as XmlElement;
        return document.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0, nodeSet: new Set([element]) });
      } finally {
        document.dispose();
      }
    };
    const digestValue = createHash('sha1')
      .update(canonical(signatureXml('', ''), '//ds:SignatureMethod'))
      .digest('base64');
    const signatureValue = sign(
      'RSA-SHA1',
      Buffer.from(canonical(signatureXml(digestValue, ''), '//ds:SignedInfo')),
      certificate.privateKeyPem,
    ).toString('base64');
    expect(verifyEnvelopedSignature(signatureXml(digestValue, signatureValue), 'part', NFE)).toMatchObject({
      outcome: 'valid',
      digestValue,
    });
  });
});
