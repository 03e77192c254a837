import { readFiscalSample } from '../testing/shared-fiscal.js';
import { HostileXmlError } from './safe-xml.js';
import {
  readRetConsStatServ, readRetDistDFeInt, readRetEnviNFe, readRetEnvEvento, readRetInutNFe, UnreadableResponseError,
} from './sefaz-responses.js';

describe('SEFAZ response readers on real answers', () => {
  it('reads a synchronous authorization (104 with protNFe 100)', () => {
    const ret = readRetEnviNFe(readFiscalSample('nfe/soap/NFeAutorizacao4_response_retEnviNFe_sync_cStat104.xml'));
    expect(ret).toMatchObject({ tpAmb: '2', cStat: '104', cUF: '43' });
    expect(ret.protNFe).toMatchObject({
      chNFe: '43211105730928000145650010000002401717268120',
      cStat: '100',
      nProt: '143210000624926',
      digVal: 'aWpBMlDjIlWUn2ALNSdwzLi2ntE=',
    });
    expect(ret.protNFe?.xml).toMatch(/^<protNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="4.00"><infProt>.*<\/protNFe>$/);
  });

  it('reads the status service (legacy 3.10 wrapper too)', () => {
    expect(readRetConsStatServ(readFiscalSample('nfe/soap/NFeStatusServico4_response.xml'))).toMatchObject({
      cStat: '107',
      xMotivo: 'Serviço em Operação',
      tMed: '1',
    });
  });

  it('reads an inutilização', () => {
    const ret = readRetInutNFe(readFiscalSample('nfe/soap/NFeInutilizacao4_response_retInutNFe.xml'));
    expect(ret).toMatchObject({ cStat: '102', nProt: '152250025831513' });
  });

  it('reads event answers', () => {
    const cancel = readRetEnvEvento(readFiscalSample('nfe/soap/RecepcaoEvento_cancelamento_response.xml'));
    expect(cancel.cStat).toBe('128');
    expect(cancel.events[0]).toMatchObject({ cStat: '155', tpEvento: '110111', chNFe: '35150300822602000124550010009923461099234656' });
    const cce = readRetEnvEvento(readFiscalSample('nfe/soap/RecepcaoEvento_cce_response.xml'));
    expect(cce.events.length).toBeGreaterThan(0);
  });

  it('reads and unzips a distribution batch', () => {
    const ret = readRetDistDFeInt(readFiscalSample('nfe/soap/NFeDistribuicaoDFe_response_retDistDFeInt_50docs.xml'));
    expect(ret).toMatchObject({ cStat: '138', ultNSU: '000000000006811', maxNSU: '000000000006991' });
    expect(ret.documents).toHaveLength(50);
    const first = ret.documents[0];
    expect(first?.nsu).toBe('000000000006762');
    expect(first?.xml).toBe(readFiscalSample('nfe/dist/000000000006762_resNFe_v1.01.xml').trim());
    const byKey = readRetDistDFeInt(readFiscalSample('nfe/soap/NFeDistribuicaoDFe_response_consChNFe_procNFe.xml'));
    expect(byKey.documents[0]?.xml).toContain('<nfeProc');
  });

  it('refuses DTDs and non-SOAP answers', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>';
    expect(() => readRetConsStatServ(xxe)).toThrow(HostileXmlError);
    expect(() => readRetConsStatServ('<html>Service Unavailable</html>')).toThrow(UnreadableResponseError);
  });
});
