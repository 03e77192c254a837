// The verification from the text as written answers only `valid`, only when libxml2's verification of the same text
// answers exactly that (same digest value, same certificate), and applies to what the project's signer writes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rawElement } from '@talao/fiscal-xml';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12 } from '@talao/xml-signing';
import { XmlC14NMode, XmlDocument } from 'libxml2-wasm';
import { verifyCanonicalTextSignature } from './canonical-text-signature.js';
import { verifyEnvelopedSignature } from './enveloped-signature.js';
import { sampleCancellationEvent } from './sample-event.js';
import { NFE_FAMILY_ALGORITHMS, NFSE_NACIONAL_ALGORITHMS } from './signature-checks.js';
import { oneCharacterMutations } from './one-character-mutations.js';

// apps/authorizer-sim/src/sefaz/ is four levels below the repository root.
const samples = fileURLToPath(new URL('../../../../fixtures/fiscal/samples/nfe/', import.meta.url));
const readSample = (file: string) => readFileSync(`${samples}${file}`, 'utf8');
const idOf = (xml: string) => /Id="((?:NFe|ID)\d{44,})"/.exec(xml)?.[1] as string;

/** The property: from the text, either no answer, or libxml2's answer, which is then `valid`. */
function expectSameOrNoAnswer(
  name: string,
  xml: string,
  id: string,
  profile: readonly string[] = NFE_FAMILY_ALGORITHMS,
): 'text' | 'libxml2' {
  const fromText = verifyCanonicalTextSignature(xml, id, profile);
  if (fromText === undefined) return 'libxml2';
  expect([name, fromText]).toEqual([name, verifyEnvelopedSignature(xml, id, profile)]);
  expect(fromText.outcome).toBe('valid');
  return 'text';
}

describe('verifyCanonicalTextSignature', () => {
  const ca = createTestCertificateAuthority();
  const certificate = loadPkcs12(ca.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA', password: 'x' }), 'x');
  const signer = createSigner(certificate);
  // What the project signs: canonical text (the sample's NFe, canonicalized, unsigned), signed by the project's signer.
  const sampleNfe = rawElement(readSample('nfeProc_v4.00_PR_2017_nfelib.xml').replace(/^<\?xml[^>]*\?>\s*/, ''), 'NFe') as string;
  const sampleDocument = XmlDocument.fromString(sampleNfe);
  const unsigned = sampleDocument.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 }).replace(/<Signature[\s\S]*<\/Signature>/, '');
  sampleDocument.dispose();
  const nfeId = idOf(unsigned);
  const signedNfe = signer.signNfeFamily(unsigned, nfeId);

  it('answers for an NF-e and an event the project signs, exactly as libxml2 does', () => {
    expect(expectSameOrNoAnswer('NF-e', signedNfe, nfeId)).toBe('text');
    const event = sampleCancellationEvent('Cancelamento & "erro" de digitação <x>');
    expect(expectSameOrNoAnswer('event', signer.signNfeFamily(event.xml, event.id), event.id)).toBe('text');
  });

  it.each([
    'envEvento_cancelamento_110111_SIGNATURE_VALID.xml',
    'envEvento_manifestacao_SIGNATURE_VALID.xml',
    'nfeProc_v3.10_SP_2018_SIGNATURE_VALID.xml',
    'nfeProc_v4.00_SP_2018_nfelib.xml',
  ])('never answers otherwise than libxml2 on the real sample %s', (file) => {
    const xml = readSample(file);
    const text = file.startsWith('nfeProc') ? (rawElement(xml, 'NFe') as string) : xml;
    expectSameOrNoAnswer(file, text, idOf(text));
  });

  it('leaves to libxml2 every text not written in canonical form, every other shape and every failure', () => {
    const algorithm = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
    const variants: Record<string, string> = {
      'an empty-element tag': signedNfe.replace(
        `<Transform Algorithm="${algorithm}"></Transform>`,
        `<Transform Algorithm="${algorithm}"/>`,
      ),
      'single quotes': signedNfe.replace('versao="4.00"', "versao='4.00'"),
      'a space before >': signedNfe.replace('<ide>', '<ide >'),
      'a character reference': signedNfe.replace('<mod>55</mod>', '<mod>&#53;5</mod>'),
      '&quot; in text': signedNfe.replace('<natOp>', '<natOp>&quot;'),
      '> in text': signedNfe.replace('<natOp>', '<natOp>&gt;>'),
      'CR LF in text': signedNfe.replace('<natOp>', '<natOp>\r\n'),
      'attributes out of order': signedNfe.replace(`Id="${nfeId}" versao="4.00"`, `versao="4.00" Id="${nfeId}"`),
      'a redundant namespace declaration': signedNfe.replace('<infNFe ', '<infNFe xmlns="http://www.portalfiscal.inf.br/nfe" '),
      'a prefixed attribute': signedNfe.replace('<infNFe ', '<infNFe xml:lang="pt" '),
      'a comment': signedNfe.replace('<ide>', '<ide><!-- x -->'),
      'a CDATA section': signedNfe.replace('<natOp>', '<natOp><![CDATA[x]]>'),
      'a tampered value': signedNfe.replace('<natOp>', '<natOp>X'),
      'a forged SignatureValue': signedNfe.replace(/<SignatureValue>./, (m) => `${m.slice(0, -1)}${m.endsWith('A') ? 'B' : 'A'}`),
      'a repeated Id': signedNfe.replace('</infNFe>', `<infAdic Id="${nfeId}"></infAdic></infNFe>`),
      'two signatures': signedNfe.replace(/(<Signature[\s\S]*<\/Signature>)/, '$1$1'),
      'a signature inside the signed element': signedNfe
        .replace(/(<Signature[\s\S]*<\/Signature>)/, '')
        .replace('</infNFe>', `${/<Signature[\s\S]*<\/Signature>/.exec(signedNfe)?.[0]}</infNFe>`),
      'a repeated xmlns': signedNfe.replace(
        '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"',
        '<NFe xmlns="http://www.portalfiscal.inf.br/nfe" xmlns="http://www.portalfiscal.inf.br/nfe"',
      ),
      'another namespace': signedNfe.replace('<NFe xmlns="http://www.portalfiscal.inf.br/nfe"', '<NFe xmlns="urn:other"'),
      'a second root': `${signedNfe}<x></x>`,
      'a mismatched end tag': signedNfe.replace('</ide>', '</idx>'),
      'a control character': signedNfe.replace('<natOp>', '<natOp>\u0001'),
    };
    for (const [name, xml] of Object.entries(variants)) expect([name, expectSameOrNoAnswer(name, xml, nfeId)]).toEqual([name, 'libxml2']);
    expect(verifyCanonicalTextSignature(signedNfe, nfeId, NFSE_NACIONAL_ALGORITHMS)).toBeUndefined();
    expect(verifyCanonicalTextSignature(signedNfe, 'NFe1', NFE_FAMILY_ALGORITHMS)).toBeUndefined();
  });

  it('never answers otherwise than libxml2 when one character is inserted, removed or replaced anywhere', () => {
    const tricky = ['<', '>', '&', '"', "'", '\r', '\n', '\t', ' ', '/', '=', ':', '!', '?', 'a', '0', 'ç', '\u0000'];
    // Every region of the text, signature included.
    for (const { label, text } of oneCharacterMutations(signedNfe, tricky, 400, 12345)) expectSameOrNoAnswer(label, text, nfeId);
  });
});
