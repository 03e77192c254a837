import { createTestCertificate, signWithXmlCrypto, verifyWithXmlCrypto } from '../testing/test-signer.js';
import { OFFICIAL_NFE_SCHEMAS } from '../testing/shared-fiscal.js';
import { xmllintErrors } from '../testing/xmllint-check.js';
import { buildNfeProc } from './nfe-proc.js';
import { buildConsSitNFe, buildConsStatServ, buildDistDFeInt, buildEnviNFe, buildInutilizacao } from './service-requests.js';

const NFE = `${OFFICIAL_NFE_SCHEMAS}nfe/`;
const key = '35220605730928000145550010000048661583302921';

describe('NF-e service requests', () => {
  it('builds inutNFe 4.00 with the 41-digit Id, signs and validates', () => {
    const cert = createTestCertificate();
    const inut = buildInutilizacao({
      environment: 'homologation',
      ufCode: '52',
      year: 2026,
      cnpj: '05730928000145',
      model: '55',
      series: 3,
      firstNumber: 53,
      lastNumber: 60,
      justification: 'Falha no sistema de numeracao',
    });
    expect(inut.id).toBe('ID52260573092800014555003000000053000000060');
    expect(inut.id).toHaveLength(43);
    expect(inut.xml).toContain('<serie>3</serie><nNFIni>53</nNFIni><nNFFin>60</nNFFin>');
    const signed = signWithXmlCrypto(inut.xml, inut.id, cert);
    expect(xmllintErrors(signed, `${NFE}inutNFe_v4.00.xsd`)).toBeUndefined();
    expect(verifyWithXmlCrypto(signed, cert)).toBe(true);
  });

  it('refuses an inverted range, a bad CNPJ and a bad series', () => {
    const base = {
      environment: 'production' as const,
      ufCode: '35',
      year: 2026,
      cnpj: '05730928000145',
      model: '55' as const,
      series: 1,
      firstNumber: 10,
      lastNumber: 10,
      justification: 'Falha no sistema de numeracao',
    };
    expect(() => buildInutilizacao({ ...base, lastNumber: 9 })).toThrow(/lastNumber/);
    expect(() => buildInutilizacao({ ...base, cnpj: '0573092800014' })).toThrow(/cnpj/);
    expect(() => buildInutilizacao({ ...base, series: 1000 })).toThrow(/series/);
    expect(() => buildInutilizacao({ ...base, ufCode: '99' })).toThrow(/ufCode/);
    expect(() => buildInutilizacao({ ...base, firstNumber: 0 })).toThrow(/firstNumber/);
  });

  it('builds consSitNFe and consStatServ 4.00', () => {
    const sit = buildConsSitNFe({ environment: 'production', accessKey: key });
    expect(sit).toBe(
      `<consSitNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>1</tpAmb><xServ>CONSULTAR</xServ><chNFe>${key}</chNFe></consSitNFe>`,
    );
    expect(xmllintErrors(sit, `${NFE}consSitNFe_v4.00.xsd`)).toBeUndefined();
    const stat = buildConsStatServ({ environment: 'homologation', ufCode: '43' });
    expect(xmllintErrors(stat, `${NFE}consStatServ_v4.00.xsd`)).toBeUndefined();
    expect(() => buildConsSitNFe({ environment: 'production', accessKey: 'x' })).toThrow(/accessKey/);
  });

  it('builds the three distDFeInt 1.01 queries', () => {
    const schema = `${OFFICIAL_NFE_SCHEMAS}nfe_dist_dfe/distDFeInt_v1.01.xsd`;
    const after = buildDistDFeInt({
      environment: 'production',
      authorUfCode: '35',
      interested: { cnpj: '05730928000145' },
      query: { kind: 'after', lastNsu: '6761' },
    });
    expect(after).toContain('<cUFAutor>35</cUFAutor><CNPJ>05730928000145</CNPJ><distNSU><ultNSU>000000000006761</ultNSU></distNSU>');
    const one = buildDistDFeInt({ environment: 'production', interested: { cpf: '12345678909' }, query: { kind: 'nsu', nsu: '42' } });
    const byKey = buildDistDFeInt({
      environment: 'homologation',
      interested: { cnpj: '05730928000145' },
      query: { kind: 'accessKey', accessKey: key },
    });
    for (const xml of [after, one, byKey]) expect(xmllintErrors(xml, schema)).toBeUndefined();
    expect(() =>
      buildDistDFeInt({
        environment: 'production',
        interested: { cnpj: '05730928000145' },
        query: { kind: 'after', lastNsu: '1234567890123456' },
      }),
    ).toThrow(/lastNsu/);
  });

  it('embeds a signed NFe byte for byte in enviNFe with indSinc=1', () => {
    const signedNfe =
      '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="NFe1" versao="4.00"></infNFe><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"></Signature></NFe>';
    const lot = buildEnviNFe({ lotId: '42', signedNfe: `<?xml version="1.0" encoding="UTF-8"?>\n${signedNfe}` });
    expect(lot).toBe(
      `<enviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><idLote>42</idLote><indSinc>1</indSinc>${signedNfe}</enviNFe>`,
    );
    expect(() => buildEnviNFe({ lotId: '42', signedNfe: '<NFe ><infNFe/></NFe>' })).toThrow(/signed/);
  });
});

describe('buildNfeProc', () => {
  it('joins the signed NFe and the protNFe as they are; refuses anything else', () => {
    const nfe =
      '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="NFe1" versao="4.00"></infNFe><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"></Signature></NFe>';
    expect(buildNfeProc({ signedNfe: nfe, protocolXml: '<protNFe versao="4.00"><infProt></infProt></protNFe>' })).toBe(
      `<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${nfe}<protNFe versao="4.00"><infProt></infProt></protNFe></nfeProc>`,
    );
    expect(() => buildNfeProc({ signedNfe: nfe, protocolXml: '<ns0:protNFe></ns0:protNFe>' })).toThrow(/protocolXml/);
    expect(() => buildNfeProc({ signedNfe: '<NFe ></NFe>', protocolXml: '<protNFe></protNFe>' })).toThrow(/signedNfe/);
  });
});
