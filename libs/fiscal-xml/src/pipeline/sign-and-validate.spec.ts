// Proof of the pipeline: random computed documents → built → signed by the project's signer → 100% XSD-valid, the
// signature verifies with xml-crypto (xml-signing's verifier) and, on a sample, with xmlsec1.
import fc from 'fast-check';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12, verifyXmlSignature } from '@talao/xml-signing';
import type { NfeDocument } from '@talao/fiscal-model';
import { buildCancellationEvent, buildCorrectionLetterEvent, buildManifestationEvent } from '../nfe/events/nfe-events.js';
import { dpsDocumentArbitrary } from '../testing/dps-document-arbitrary.js';
import { homologationEventCommon } from '../testing/nfe-event-common.js';
import { nfeDocumentArbitrary, sampleNfeDocument } from '../testing/nfe-document-arbitrary.js';
import { xmlsec1Verifies } from '../testing/xmlsec1.js';
import { XsdValidationError } from '../xsd/xsd-validator.js';
import {
  buildSignValidateDps,
  buildSignValidateInutilizacao,
  buildSignValidateNfe,
  buildSignValidateNfseCancellation,
  signValidateEventLot,
} from './sign-and-validate.js';

const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
const NFSE_NS = 'http://www.sped.fazenda.gov.br/nfse';
const XMLSEC1_SAMPLE = 20;

/** The values seen, once each, sorted. */
const distinct = (values: string[]) => [...new Set(values)].sort();
const issuerKind = (emit: NfeDocument['emit']) => (emit.CPF ? 'CPF' : /[A-Z]/.test(emit.CNPJ ?? '') ? 'CNPJ-alphanumeric' : 'CNPJ-numeric');

const authority = createTestCertificateAuthority();
const signer = createSigner(loadPkcs12(authority.issueA1({ taxId: '11222333000181', legalName: 'TALAO TESTE LTDA', password: 'x' }), 'x'));

describe('build → sign → validate (property-based)', () => {
  it('NF-e: 1–200 items, every ICMS group, CPF/CNPJ (alphanumeric too), IBS/CBS, contingency', () => {
    // The documents that passed, for the coverage asserted after the property ran.
    const documents: NfeDocument[] = [];
    let checkedWithXmlsec1 = 0;
    fc.assert(
      fc.property(nfeDocumentArbitrary({ minLength: 1, maxLength: 200 }), (doc: NfeDocument) => {
        const signed = buildSignValidateNfe(doc, signer); // throws unless XSD-valid
        expect(signed.accessKey).toBe(doc.accessKey);
        const verification = verifyXmlSignature(signed.xml);
        if (!verification.valid) throw new Error(`xml-crypto: ${verification.reason}`);
        if (checkedWithXmlsec1 < XMLSEC1_SAMPLE) {
          checkedWithXmlsec1++;
          const xmlsec = xmlsec1Verifies(signed.xml, NFE_NS, 'infNFe');
          if (!xmlsec.ok) throw new Error(`xmlsec1: ${xmlsec.output}`);
        }
        documents.push(doc);
      }),
      { numRuns: 25, seed: 20260731 },
    );
    expect(checkedWithXmlsec1).toBe(XMLSEC1_SAMPLE);
    expect(distinct(documents.flatMap((doc) => doc.det.map((item) => item.imposto.ICMS.group)))).toEqual([
      'ICMS00',
      'ICMS02',
      'ICMS10',
      'ICMS15',
      'ICMS20',
      'ICMS30',
      'ICMS40',
      'ICMS51',
      'ICMS53',
      'ICMS60',
      'ICMS61',
      'ICMS70',
      'ICMS90',
      'ICMSPart',
      'ICMSSN101',
      'ICMSSN102',
      'ICMSSN201',
      'ICMSSN202',
      'ICMSSN500',
      'ICMSSN900',
      'ICMSST',
    ]);
    expect(distinct(documents.map((doc) => issuerKind(doc.emit)))).toEqual(['CNPJ-alphanumeric', 'CNPJ-numeric', 'CPF']);
    expect(documents.filter((doc) => doc.total.IBSCBSTot).length).toBeGreaterThan(0);
    expect(documents.filter((doc) => doc.ide.contingency).length).toBeGreaterThan(0);
    expect(Math.max(...documents.map((doc) => doc.det.length))).toBeGreaterThanOrEqual(150);
  });

  it('DPS: schema-valid, verifies with xml-crypto and xmlsec1', () => {
    let checked = 0;
    fc.assert(
      fc.property(dpsDocumentArbitrary(), (doc) => {
        const signed = buildSignValidateDps(doc, signer);
        const verification = verifyXmlSignature(signed.xml);
        if (!verification.valid) throw new Error(`xml-crypto: ${verification.reason}`);
        if (checked++ < XMLSEC1_SAMPLE) {
          const xmlsec = xmlsec1Verifies(signed.xml, NFSE_NS, 'infDPS');
          if (!xmlsec.ok) throw new Error(`xmlsec1: ${xmlsec.output}`);
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('events, inutilização and the NFS-e cancellation sign, validate and verify', () => {
    const common = homologationEventCommon(sampleNfeDocument(1).accessKey, '11222333000181', new Date('2026-08-01T12:00:00Z'));
    const lots = [
      signValidateEventLot(
        '1',
        [buildCancellationEvent({ ...common, protocol: '135260000000001', justification: 'Pedido cancelado pelo cliente' })],
        signer,
        'envEventoCancNFe',
      ),
      signValidateEventLot(
        '2',
        [1, 2].map((sequence) =>
          buildCorrectionLetterEvent({ ...common, sequence, correction: `Correcao numero ${sequence} do endereco` }),
        ),
        signer,
        'envCCe',
      ),
      signValidateEventLot(
        '3',
        [buildManifestationEvent({ ...common, type: '210240', justification: 'Operacao nao foi realizada' })],
        signer,
        'envConfRecebto',
      ),
    ];
    for (const lot of lots) {
      expect(verifyXmlSignature(lot).valid).toBe(true);
      // Inclusive C14N: each event verifies inside the lot, whose only namespace is the same default namespace.
      expect(
        xmlsec1Verifies(
          lot.replace(/^<envEvento[^>]*><idLote>\d+<\/idLote>/, '').replace(/(<\/evento>)[\s\S]*$/, '$1'),
          NFE_NS,
          'infEvento',
        ).ok,
      ).toBe(true);
    }
    const inut = buildSignValidateInutilizacao(
      {
        environment: 'homologation',
        ufCode: '35',
        year: 2026,
        cnpj: '11222333000181',
        model: '55',
        series: 1,
        firstNumber: 5,
        lastNumber: 9,
        justification: 'Numeracao pulada por falha',
      },
      signer,
    );
    expect(xmlsec1Verifies(inut, NFE_NS, 'infInut').ok).toBe(true);
    const cancel = buildSignValidateNfseCancellation(
      {
        environment: 'homologation',
        applicationVersion: 'Talao 0.1.0',
        author: { cnpj: '11222333000181' },
        accessKey: '3'.repeat(50),
        eventAt: new Date(),
        utcOffset: '-03:00',
        reason: '2',
        justification: 'Servico nao foi prestado',
      },
      signer,
    );
    expect(verifyXmlSignature(cancel).valid).toBe(true);
    expect(xmlsec1Verifies(cancel, NFSE_NS, 'infPedReg').ok).toBe(true);
  });

  it('a document the schema refuses never leaves: XsdValidationError', () => {
    const doc = sampleNfeDocument(1);
    const bad = { ...doc, det: doc.det.map((d) => ({ ...d, prod: { ...d.prod, CFOP: '4102' } })) };
    expect(() => buildSignValidateNfe(bad, signer)).toThrow(XsdValidationError);
  });

  it('a tampered signed NF-e fails both verifiers (the checks can fail)', () => {
    const signed = buildSignValidateNfe(sampleNfeDocument(2), signer);
    const tampered = signed.xml.replace(/<vNF>[^<]*<\/vNF>/, '<vNF>0.01</vNF>');
    expect(verifyXmlSignature(tampered).valid).toBe(false);
    expect(xmlsec1Verifies(tampered, NFE_NS, 'infNFe').ok).toBe(false);
  });
});
