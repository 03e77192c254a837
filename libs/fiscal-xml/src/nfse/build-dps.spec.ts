import fc from 'fast-check';
import { readSample } from '../testing/shared-fiscal.js';
import { dpsDocumentArbitrary, sampleDpsDocument } from '../testing/dps-document-arbitrary.js';
import { createTestCertificate, signNfseWithXmlCrypto } from '../testing/test-signer.js';
import { validateXml } from '../xsd/xsd-validator.js';
import { buildDps, dpsId } from './build-dps.js';

const cert = createTestCertificate();

describe('buildDps', () => {
  it('computes the Id as the official sample does (DPS + 42 digits)', () => {
    const sample = readSample('nfse/DPS_v1.01_IBSCBS_minimal.xml');
    const id = dpsId({
      cLocEmi: '4105508',
      prest: { CNPJ: '12345678901234', regTrib: { opSimpNac: '3', regApTribSN: '1', regEspTrib: '0' } },
      serie: '3',
      nDPS: '52',
    });
    expect(sample).toContain(`Id="${id}"`);
    expect(id).toMatch(/^DPS[0-9]{42}$/);
    expect(
      dpsId({ cLocEmi: '3550308', prest: { CPF: '12345678909', regTrib: { opSimpNac: '1', regEspTrib: '0' } }, serie: '900', nDPS: '1' }),
    ).toBe(`DPS${'3550308'}${'1'}${'00012345678909'}${'00900'}${'000000000000001'}`);
  });

  it('random DPS documents are schema-valid unsigned and signed (RSA-SHA256, exclusive C14N)', () => {
    fc.assert(
      fc.property(dpsDocumentArbitrary(), (doc) => {
        const dps = buildDps(doc);
        const unsigned = validateXml('dps', dps.xml);
        if (!unsigned.valid) throw new Error(JSON.stringify(unsigned.errors.slice(0, 3)));
        const signed = validateXml('dps', signNfseWithXmlCrypto(dps.xml, dps.id, cert));
        if (!signed.valid) throw new Error(JSON.stringify(signed.errors.slice(0, 3)));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses an Id that disagrees with its fields and inconsistent groups', () => {
    const doc = sampleDpsDocument();
    expect(() => buildDps({ ...doc, id: doc.id.replace(/.$/, (d) => String((Number(d) + 1) % 10)) })).toThrow(/disagrees/);
    expect(() => buildDps({ ...doc, prest: { ...doc.prest, CNPJ: '11222333000181', CPF: '12345678909' } })).toThrow();
    expect(() => buildDps({ ...doc, prest: { ...doc.prest, regTrib: { opSimpNac: '1', regApTribSN: '1', regEspTrib: '0' } } })).toThrow(
      /regApTribSN/,
    );
    expect(() =>
      buildDps({ ...doc, toma: { CPF: '12345678909', xNome: 'Cliente', end: { xLgr: 'Rua', nro: '1', xBairro: 'Centro' } } }),
    ).toThrow(/endNac, endExt/);
  });
});
