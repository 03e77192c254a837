import fc from 'fast-check';
import { createTestCertificate, signWithXmlCrypto } from '../../testing/test-signer.js';
import { nfeDocumentArbitrary, sampleNfeDocument } from '../../testing/nfe-document-arbitrary.js';
import { validateXml } from '../../xsd/xsd-validator.js';
import { buildNfe } from './build-nfe.js';

const cert = createTestCertificate();

describe('buildNfe', () => {
  it('builds a schema-valid signed NF-e from a sample document', () => {
    const doc = sampleNfeDocument(3);
    const nfe = buildNfe(doc);
    expect(nfe.id).toBe(`NFe${doc.accessKey}`);
    expect(nfe.xml.startsWith(`<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="${nfe.id}" versao="4.00"><ide><cUF>`)).toBe(
      true,
    );
    const signed = signWithXmlCrypto(nfe.xml, nfe.id, cert);
    expect(validateXml('nfe', signed)).toEqual({ valid: true });
  });

  it('random documents are schema-valid (quick scan)', () => {
    fc.assert(
      fc.property(nfeDocumentArbitrary({ minLength: 1, maxLength: 5 }), (doc) => {
        const nfe = buildNfe(doc);
        const result = validateXml('nfe', signWithXmlCrypto(nfe.xml, nfe.id, cert));
        if (!result.valid) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
      }),
      { numRuns: 40 },
    );
  });

  it('the schema check can fail: a wrong NCM or a missing group is reported', () => {
    const doc = sampleNfeDocument(1);
    const bad = buildNfe({ ...doc, det: doc.det.map((d) => ({ ...d, prod: { ...d.prod, NCM: '1234567' } })) });
    expect(validateXml('nfe', signWithXmlCrypto(bad.xml, bad.id, cert)).valid).toBe(false);
    const nfe = buildNfe(doc);
    const withoutTransp = nfe.xml.replace('<transp><modFrete>9</modFrete></transp>', '');
    expect(validateXml('nfe', signWithXmlCrypto(withoutTransp, nfe.id, cert)).valid).toBe(false);
  });

  it('refuses documents whose access key disagrees with ide, bad item numbering, missing contingency data', () => {
    const doc = sampleNfeDocument(2);
    expect(() => buildNfe({ ...doc, accessKey: `${doc.accessKey.slice(0, 43)}${(Number(doc.accessKey[43]) + 1) % 10}` })).toThrow(
      /accessKey/,
    );
    expect(() => buildNfe({ ...doc, ide: { ...doc.ide, nNF: String(Number(doc.ide.nNF) + 1) } })).toThrow(/ide.nNF/);
    expect(() => buildNfe({ ...doc, det: [...doc.det].reverse() })).toThrow(/nItem/);
    expect(() => buildNfe({ ...doc, det: [] })).toThrow(/1–990/);
    const normal = doc.ide.tpEmis === '1' ? doc : { ...doc, ide: { ...doc.ide, contingency: undefined } };
    if (doc.ide.tpEmis === '1')
      expect(() =>
        buildNfe({
          ...normal,
          ide: { ...normal.ide, contingency: { dhCont: '2026-07-31T09:00:00-03:00', xJust: 'Sem conexao com o autorizador' } },
        }),
      ).toThrow(/contingency/);
    else expect(() => buildNfe(normal)).toThrow(/contingency/);
    expect(() => buildNfe({ ...doc, emit: { ...doc.emit, CPF: '12345678909', CNPJ: '11222333000181' } })).toThrow(/exactly one/);
    expect(() => buildNfe({ ...doc, pag: { detPag: [{ tPag: '99', vPag: '1.00' }] } })).toThrow(/xPag/);
    expect(() => buildNfe({ ...doc, infAdic: { infCpl: 'bad\u0001char' } })).toThrow(/character/);
    const withoutCest = doc.det.map((d) => ({
      ...d,
      prod: { ...d.prod, CEST: undefined, indEscala: 'N' as const, CNPJFab: '11222333000181' },
    }));
    expect(() => buildNfe({ ...doc, det: withoutCest })).toThrow(/CEST/);
  });

  it('CEST, indEscala and CNPJFab in the layout order, schema-valid', () => {
    const doc = sampleNfeDocument(1);
    const nfe = buildNfe({
      ...doc,
      det: doc.det.map((d) => ({ ...d, prod: { ...d.prod, CEST: '2806300', indEscala: 'N' as const, CNPJFab: '12ABC34501DE35' } })),
    });
    expect(nfe.xml).toContain('<CEST>2806300</CEST><indEscala>N</indEscala><CNPJFab>12ABC34501DE35</CNPJFab><CFOP>');
    expect(validateXml('nfe', signWithXmlCrypto(nfe.xml, nfe.id, cert))).toEqual({ valid: true });
  });
});
