// The NF-e signature verified on the lot the XSD validation parsed must be exactly the verification of the NFe's
// text alone: same canonical forms on real samples and on NF-e the project signs, and no shortcut where they could
// differ.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { buildEnviNFe, rawElement, validateXmlDocument } from '@talao/fiscal-xml';
import { createSigner, loadPkcs12 } from '@talao/xml-signing';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { verifyEnvelopedSignature, verifyEnvelopedSignatureIn } from './enveloped-signature.js';
import { nfeOfValidatedLot } from './nfe-in-lot.js';
import { NFE_FAMILY_ALGORITHMS } from './signature-checks.js';

// apps/authorizer-sim/src/sefaz/ is four levels below the repository root.
const samples = fileURLToPath(new URL('../../../../fixtures/fiscal/samples/nfe/', import.meta.url));
const DS = { ds: 'http://www.w3.org/2000/09/xmldsig#' };

/** The sample without its XML declaration (all are UTF-8): a declaration alone already rules the shortcut out. */
const readSample = (file: string) => readFileSync(`${samples}${file}`, 'utf8').replace(/^<\?xml[^>]*\?>\s*/, '');
const idOf = (xml: string) => /Id="(NFe\d{44})"/.exec(xml)?.[1] as string;

/** C14N 1.0 of the element with the Id and of SignedInfo, as the verifier computes them. */
function canonicalForms(document: XmlDocument, scope: XmlElement, id: string): [string, string] {
  const target = scope.get(`descendant-or-self::*[@Id='${id}']`) as XmlElement;
  const signedInfo = scope.get('descendant-or-self::ds:Signature/ds:SignedInfo', DS) as XmlElement;
  const mode = XmlC14NMode.XML_C14N_1_0;
  return [
    document.canonicalizeToString({ mode, nodeSet: new Set([target]) }),
    document.canonicalizeToString({ mode, nodeSet: new Set([signedInfo]) }),
  ];
}

function withDocument<T>(xml: string, use: (document: XmlDocument) => T): T {
  const document = XmlDocument.fromString(xml);
  try {
    return use(document);
  } finally {
    document.dispose();
  }
}

/** What verifying on the enclosing document answers, and what verifying the NFe's text alone answers. */
function bothVerifications(enclosing: string, parse: (xml: string) => XmlDocument = (xml) => XmlDocument.fromString(xml)) {
  const id = idOf(enclosing);
  const document = parse(enclosing);
  try {
    const nfe = nfeOfValidatedLot(document, enclosing);
    if (!nfe) throw new Error('expected the shortcut to apply');
    return {
      inDocument: verifyEnvelopedSignatureIn(document, nfe, id, NFE_FAMILY_ALGORITHMS),
      alone: verifyEnvelopedSignature(rawElement(enclosing, 'NFe') as string, id, NFE_FAMILY_ALGORITHMS),
    };
  } finally {
    document.dispose();
  }
}

function parseValidLot(lot: string): XmlDocument {
  const validated = validateXmlDocument('enviNFe', lot);
  if (!validated.valid) throw new Error(`lot not valid: ${JSON.stringify(validated.errors)}`);
  return validated.document;
}

describe('the NFe of a validated lot, verified in place', () => {
  it.each(['nfeProc_v3.10_SP_2018_SIGNATURE_VALID.xml', 'nfeProc_v4.00_PR_2017_nfelib.xml', 'nfeProc_v4.00_SP_2018_nfelib.xml'])(
    'canonicalizes the signed parts of %s inside nfeProc exactly as in the NFe alone, and verifies it the same',
    (file) => {
      const enclosing = readSample(file);
      const id = idOf(enclosing);
      const inPlace = withDocument(enclosing, (document) => {
        const nfe = nfeOfValidatedLot(document, enclosing);
        expect(nfe?.name).toBe('NFe');
        return canonicalForms(document, nfe as XmlElement, id);
      });
      const alone = withDocument(rawElement(enclosing, 'NFe') as string, (document) => canonicalForms(document, document.root, id));
      expect(inPlace).toEqual(alone);
      const { inDocument, alone: verifiedAlone } = bothVerifications(enclosing);
      expect(inDocument).toEqual(verifiedAlone);
      if (file.includes('SIGNATURE_VALID')) expect(inDocument.outcome).toBe('valid');
    },
  );

  it('leaves alone the samples whose NFe inherits its namespace from nfeProc: there the canonical forms differ', () => {
    for (const file of ['nfeProc_v4.00_IBSCBS_reforma_nfelib.xml', 'nfeProc_v4.00_RS_2018_spednfe.xml']) {
      const enclosing = readSample(file);
      const id = idOf(enclosing);
      const inPlace = withDocument(enclosing, (document) => {
        expect(nfeOfValidatedLot(document, enclosing)).toBeUndefined();
        return canonicalForms(document, document.root, id)[0];
      });
      const alone = withDocument(rawElement(enclosing, 'NFe') as string, (document) => canonicalForms(document, document.root, id)[0]);
      expect(inPlace).not.toEqual(alone);
    }
  });

  describe('on an NF-e the project signs, in the enviNFe the issuer sends', () => {
    const ca = createTestCertificateAuthority();
    const certificate = loadPkcs12(ca.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA', password: 'x' }), 'x');
    // The signer takes canonical text (what the project's builders write): the sample's NFe, canonicalized, unsigned.
    const sampleNfe = rawElement(readSample('nfeProc_v4.00_PR_2017_nfelib.xml'), 'NFe') as string;
    const unsigned = withDocument(sampleNfe, (document) => document.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 })).replace(
      /<Signature[\s\S]*<\/Signature>/,
      '',
    );
    const signedNfe = createSigner(certificate).signNfeFamily(unsigned, idOf(unsigned));
    const lot = buildEnviNFe({ lotId: '1', signedNfe });

    it('answers as the verification of the NFe text alone: valid, wrong digest, wrong signature value', () => {
      const valid = bothVerifications(lot, parseValidLot);
      expect(valid.inDocument).toMatchObject({ outcome: 'valid', digestValue: valid.alone.digestValue });
      expect(valid.inDocument).toEqual(valid.alone);
      const tampered = bothVerifications(lot.replace('<natOp>', '<natOp>X'), parseValidLot);
      expect(tampered.inDocument).toMatchObject({ outcome: 'value', reason: 'Digest of the referenced element does not match' });
      expect(tampered.inDocument).toEqual(tampered.alone);
      const forged = bothVerifications(
        lot.replace(/<SignatureValue>./, (m) => `${m.slice(0, -1)}${m.endsWith('A') ? 'B' : 'A'}`),
        parseValidLot,
      );
      expect(forged.inDocument).toMatchObject({ outcome: 'value', reason: 'SignatureValue does not match' });
      expect(forged.inDocument).toEqual(forged.alone);
    });

    it('takes the NFe from the document only when nothing could make it differ from the text cut out of the message', () => {
      const body = lot.slice(lot.indexOf('<idLote>'), lot.lastIndexOf('</enviNFe>'));
      const secondNfe = signedNfe.replace(/Id="NFe(\d+)"/, 'Id="NFe$1"');
      const variants: Record<string, string> = {
        'a comment': lot.replace('<idLote>', '<!-- <NFe> --><idLote>'),
        'a CDATA section': lot.replace('<natOp>', '<natOp><![CDATA[</NFe>]]>'),
        'an XML declaration (it may name another encoding)': `<?xml version="1.0" encoding="UTF-8"?>${lot}`,
        'a processing instruction': lot.replace('<idLote>', '<?pi x?><idLote>'),
        'two NFe': lot.replace('</enviNFe>', `${secondNfe}</enviNFe>`),
        'a namespace declared on enviNFe only': lot.replace('<enviNFe ', '<enviNFe xmlns:x="urn:x" '),
        'an NFe that inherits its namespace': `<enviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${body.replace('<NFe xmlns="http://www.portalfiscal.inf.br/nfe">', '<NFe>')}</enviNFe>`,
        'an xml:* attribute on enviNFe': lot.replace('<enviNFe ', '<enviNFe xml:lang="pt" '),
      };
      withDocument(lot, (document) => expect(nfeOfValidatedLot(document, lot)?.name).toBe('NFe'));
      for (const [name, message] of Object.entries(variants)) {
        expect([name, withDocument(message, (document) => nfeOfValidatedLot(document, message))]).toEqual([name, undefined]);
      }
    });
  });
});
