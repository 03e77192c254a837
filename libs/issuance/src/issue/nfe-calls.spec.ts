import { issuedInContingency, signedNfeOf } from './nfe-calls.js';

describe('NF-e call helpers', () => {
  it('reads tpEmis from the access key (35th character)', () => {
    const key = (tpEmis: string) => `3526071122233300018155001000000001${tpEmis}123456780`;
    expect(key('1')).toHaveLength(44);
    expect(issuedInContingency(key('1'))).toBe(false);
    expect(issuedInContingency(key('6'))).toBe(true);
    expect(issuedInContingency(key('7'))).toBe(true);
  });

  it('takes the signed NFe out of a stored envelope byte for byte', () => {
    const nfe = '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="NFe1">a &amp; b</infNFe><Signature>x</Signature></NFe>';
    const envelope = `<soap12:Envelope><soap12:Body><nfeDadosMsg><enviNFe><idLote>1</idLote><indSinc>1</indSinc>${nfe}</enviNFe></nfeDadosMsg></soap12:Body></soap12:Envelope>`;
    expect(signedNfeOf(envelope)).toBe(nfe);
    expect(() => signedNfeOf('<consSitNFe/>')).toThrow('holds no NFe');
  });
});
