import { readdirSync } from 'node:fs';
import { isAccessKeyValid } from '@talao/fiscal-model';
import { readSample, SHARED_FISCAL } from '../testing/shared-fiscal.js';
import { parseRetDistDFeInt } from './dist-dfe.js';
import { parseXmlTree, XmlParseError } from './hardened-xml.js';
import { parseRetConsSitNFe, parseRetConsStatServ, parseRetEnviNFe, parseRetEnvEvento, parseRetInutNFe } from './nfe-responses.js';
import { SoapFaultError, unwrapSoapResponse } from './soap-envelope.js';

describe('SEFAZ responses (golden, real samples)', () => {
  it('retEnviNFe (sync, cStat 104) with its protNFe, kept byte for byte', () => {
    const xml = readSample('nfe/soap/NFeAutorizacao4_response_retEnviNFe_sync_cStat104.xml');
    const ret = parseRetEnviNFe(xml);
    expect(ret.status).toEqual({ code: '104', message: 'Lote processado' });
    expect(ret.ufCode).toBe('43');
    expect(ret.protocol).toMatchObject({
      accessKey: '43211105730928000145650010000002401717268120',
      protocolNumber: '143210000624926',
      digestValue: 'aWpBMlDjIlWUn2ALNSdwzLi2ntE=',
      status: { code: '100', message: 'Autorizado o uso da NF-e' },
    });
    expect(ret.protocol?.rawXml).toMatch(/^<protNFe versao="4.00"><infProt>.*<\/infProt><\/protNFe>$/);
    // This fixture's key was edited by its publisher: its check digit (0) is not the modulus-11 result (9).
    expect(isAccessKeyValid(ret.protocol?.accessKey ?? '')).toBe(false);
  });

  it('retEnvEvento for a cancellation and a CC-e', () => {
    const cancel = parseRetEnvEvento(readSample('nfe/soap/RecepcaoEvento_cancelamento_response.xml'));
    expect(cancel.status.code).toBe('128');
    expect(cancel.results).toHaveLength(1);
    expect(cancel.results[0]).toMatchObject({
      status: { code: '155', message: 'Cancelamento homologado fora de prazo' },
      type: '110111',
      sequence: '1',
      protocolNumber: '135170002129076',
      accessKey: '35150300822602000124550010009923461099234656',
    });
    const cce = parseRetEnvEvento(readSample('nfe/soap/RecepcaoEvento_cce_response.xml'));
    expect(cce.results[0]).toMatchObject({ status: { code: '135' }, type: '110110', description: 'Carta de Correção registrada' });
    expect(isAccessKeyValid(cancel.results[0]?.accessKey ?? '')).toBe(true);
    // The CC-e answer comes from documentation with an edited key (check digit 4, modulus 11 gives 7).
    expect(isAccessKeyValid(cce.results[0]?.accessKey ?? '')).toBe(false);
  });

  it('retInutNFe and retConsStatServ', () => {
    const inut = parseRetInutNFe(readSample('nfe/soap/NFeInutilizacao4_response_retInutNFe.xml'));
    expect(inut).toMatchObject({
      status: { code: '102', message: 'Inutilização de número homologado' },
      ufCode: '52',
      series: '3',
      firstNumber: '53',
      lastNumber: '53',
      protocolNumber: '152250025831513',
    });
    const stat = parseRetConsStatServ(readSample('nfe/soap/NFeStatusServico4_response.xml'));
    expect(stat).toMatchObject({ status: { code: '107', message: 'Serviço em Operação' }, ufCode: '35', averageSeconds: '1' });
  });

  it('retDistDFeInt with 50 docZips: every document inflated, summarised, real keys valid', () => {
    const ret = parseRetDistDFeInt(readSample('nfe/soap/NFeDistribuicaoDFe_response_retDistDFeInt_50docs.xml'));
    expect(ret).toMatchObject({ status: { code: '138' }, lastNsu: '000000000006811', maxNsu: '000000000006991' });
    expect(ret.documents).toHaveLength(50);
    const kinds = new Set(ret.documents.map((d) => d.kind));
    expect(kinds).toEqual(new Set(['resNFe', 'resEvento', 'procEventoNFe']));
    for (const doc of ret.documents) {
      expect(doc.nsu).toMatch(/^[0-9]{15}$/);
      if (doc.kind === 'other') continue;
      expect(isAccessKeyValid(doc.summary.accessKey)).toBe(true);
    }
    // The decoded documents are the same bytes as the samples decoded by hand.
    for (const file of readdirSync(`${SHARED_FISCAL}samples/nfe/dist`)) {
      const nsu = file.slice(0, 15);
      const doc = ret.documents.find((d) => d.nsu === nsu);
      expect(doc?.xml.trim()).toBe(readSample(`nfe/dist/${file}`).trim());
    }
    const summary = ret.documents.find((d) => d.nsu === '000000000006762');
    expect(summary).toMatchObject({
      kind: 'resNFe',
      schema: 'resNFe_v1.01.xsd',
      summary: { total: '3290.20', situation: '1', issuerTaxId: '07705364000116' },
    });
  });

  it('retDistDFeInt by access key with a full procNFe', () => {
    const ret = parseRetDistDFeInt(readSample('nfe/soap/NFeDistribuicaoDFe_response_consChNFe_procNFe.xml'));
    expect(ret.documents).toHaveLength(1);
    const [doc] = ret.documents;
    expect(doc?.kind).toBe('procNFe');
    if (doc?.kind !== 'procNFe') return;
    expect(isAccessKeyValid(doc.summary.accessKey)).toBe(true);
    expect(doc.summary.protocol?.accessKey).toBe(doc.summary.accessKey);
    expect(doc.xml).toContain('<NFe');
  });

  it('retConsSitNFe with protNFe and procEventoNFe list', () => {
    const key = '35220605730928000145550010000048661583302923';
    const xml =
      '<retConsSitNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic>' +
      `<cStat>101</cStat><xMotivo>Cancelamento de NF-e homologado</xMotivo><cUF>35</cUF><dhRecbto>2026-03-10T12:00:00-03:00</dhRecbto><chNFe>${key}</chNFe>` +
      `<protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><verAplic>SP</verAplic><chNFe>${key}</chNFe><dhRecbto>2026-03-10T11:00:00-03:00</dhRecbto><nProt>135260000000001</nProt><digVal>AAAAAAAAAAAAAAAAAAAAAAAAAAA=</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>` +
      `<procEventoNFe versao="1.00"><evento versao="1.00"><infEvento Id="ID110111${key}01"><cOrgao>35</cOrgao><tpAmb>2</tpAmb><CNPJ>05730928000145</CNPJ><chNFe>${key}</chNFe><dhEvento>2026-03-10T11:30:00-03:00</dhEvento><tpEvento>110111</tpEvento><nSeqEvento>1</nSeqEvento><verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>Cancelamento</descEvento><nProt>135260000000001</nProt><xJust>Pedido cancelado &amp; devolvido</xJust></detEvento></infEvento></evento>` +
      `<retEvento versao="1.00"><infEvento><tpAmb>2</tpAmb><verAplic>SP</verAplic><cOrgao>35</cOrgao><cStat>135</cStat><xMotivo>Evento registrado e vinculado a NF-e</xMotivo><chNFe>${key}</chNFe><tpEvento>110111</tpEvento><nSeqEvento>1</nSeqEvento><dhRegEvento>2026-03-10T11:30:01-03:00</dhRegEvento><nProt>135260000000002</nProt></infEvento></retEvento></procEventoNFe></retConsSitNFe>`;
    const ret = parseRetConsSitNFe(xml);
    expect(ret.status.code).toBe('101');
    expect(ret.protocol?.protocolNumber).toBe('135260000000001');
    expect(ret.events).toHaveLength(1);
    expect(ret.events[0]).toMatchObject({
      type: '110111',
      sequence: '1',
      result: { status: { code: '135' }, protocolNumber: '135260000000002' },
    });
  });
});

describe('hostile and malformed input', () => {
  it('refuses DOCTYPE / ENTITY before parsing (XXE, billion laughs)', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><retConsStatServ>&lol2;</retConsStatServ>';
    expect(() => parseRetConsStatServ(laughs)).toThrow(/DOCTYPE/);
    const xxe = '<!doctype x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>';
    expect(() => parseXmlTree(xxe)).toThrow(XmlParseError);
  });

  it('refuses oversize and malformed documents and unknown entities stay literal', () => {
    expect(() => parseXmlTree('<a>x</a>', 4)).toThrow(/exceeds/);
    expect(() => parseXmlTree('<a><b></a>')).toThrow(/well-formed/);
    expect(parseXmlTree('<a>&amp;&lt;&#233;&#x41;&foo;</a>')).toEqual({ a: '&<éA&foo;' });
  });

  it('reports SOAP faults and wrong documents', () => {
    const fault =
      '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code><env:Reason><env:Text xml:lang="pt">Servico indisponivel</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>';
    expect(() => unwrapSoapResponse(fault)).toThrow(SoapFaultError);
    expect(() => unwrapSoapResponse(fault)).toThrow(/Servico indisponivel/);
    expect(() => parseRetEnviNFe(readSample('nfe/soap/NFeStatusServico4_response.xml'))).toThrow(/expected <retEnviNFe>/);
  });
});
