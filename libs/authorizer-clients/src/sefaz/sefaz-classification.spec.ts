// The client's reading of real SEFAZ answers (../shared/fiscal/samples/nfe/soap): fiscal-xml's parsers, then the
// outcome the platform acts on.
import { parseRetConsStatServ, parseRetDistDFeInt, parseRetEnviNFe, parseRetEnvEvento, parseRetInutNFe } from '@talao/fiscal-xml';
import { readFiscalSample } from '../testing/shared-fiscal.js';
import { parseRetConsReciNFe } from './ret-cons-reci-nfe.js';
import { classifyDistribution, classifyEvent, classifyInutilizacao, classifyStatusService } from './sefaz-classification.js';

const soap = (file: string) => readFiscalSample(`nfe/soap/${file}`);

describe('classification of real SEFAZ answers', () => {
  it('reads a synchronous authorization (104 with protNFe 100) and keeps protNFe byte for byte', () => {
    const ret = parseRetEnviNFe(soap('NFeAutorizacao4_response_retEnviNFe_sync_cStat104.xml'));
    expect(ret.status.code).toBe('104');
    expect(ret.protocol).toMatchObject({
      accessKey: '43211105730928000145650010000002401717268120',
      protocolNumber: '143210000624926',
      status: { code: '100' },
    });
    expect(ret.protocol?.rawXml).toMatch(/^<protNFe versao="4.00"><infProt>.*<\/protNFe>$/);
  });

  it('classifies the status service, events, inutilização and distribution', () => {
    expect(classifyStatusService(parseRetConsStatServ(soap('NFeStatusServico4_response.xml')), [])).toMatchObject({
      status: 'accepted',
      code: '107',
    });
    const late = classifyEvent(parseRetEnvEvento(soap('RecepcaoEvento_cancelamento_response.xml')), []);
    expect(late).toMatchObject({ status: 'accepted', code: '155', message: 'Cancelamento homologado fora de prazo' });
    expect(classifyEvent(parseRetEnvEvento(soap('RecepcaoEvento_cce_response.xml')), []).status).toBe('accepted');
    expect(classifyInutilizacao(parseRetInutNFe(soap('NFeInutilizacao4_response_retInutNFe.xml')), [])).toMatchObject({
      status: 'accepted',
      code: '102',
      protocol: '152250025831513',
    });
    const dist = classifyDistribution(parseRetDistDFeInt(soap('NFeDistribuicaoDFe_response_retDistDFeInt_50docs.xml')), []);
    expect(dist).toMatchObject({ status: 'accepted', code: '138' });
    if (dist.status === 'accepted') expect(dist.result.documents).toHaveLength(50);
  });

  it('reads the answer of an asynchronous lot (retConsReciNFe)', () => {
    const xml =
      '<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeRetAutorizacao4">' +
      '<retConsReciNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><nRec>351000000000001</nRec>' +
      '<cStat>104</cStat><xMotivo>Lote processado</xMotivo><cUF>35</cUF><dhRecbto>2026-07-31T10:15:00-03:00</dhRecbto><protNFe versao="4.00"><infProt>' +
      '<tpAmb>2</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>35260711222333000181550010000001001123456780</chNFe><dhRecbto>2026-07-31T10:15:00-03:00</dhRecbto>' +
      '<nProt>135260000000001</nProt><digVal>aWpBMlDjIlWUn2ALNSdwzLi2ntE=</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>' +
      '</retConsReciNFe></nfeResultMsg></soap:Body></soap:Envelope>';
    const ret = parseRetConsReciNFe(xml);
    expect(ret).toMatchObject({ receipt: '351000000000001', status: { code: '104' } });
    expect(ret.protocols[0]).toMatchObject({ protocolNumber: '135260000000001', status: { code: '100' } });
    expect(ret.protocols[0]?.rawXml).toContain('<nProt>135260000000001</nProt>');
  });
});
