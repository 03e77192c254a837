import { type SimServices } from './sefaz-context.js';
import { dispatchSoap, extractDataMessage } from './soap-dispatch.js';

const endpoint = { operation: 'NFeStatusServico4', method: 'nfeStatusServicoNF' };
const call = { authorizer: 'SP', tpAmb: '2' as const, transmitterTaxId: null };
// Every case below is refused before any service is used.
const noServices = {} as SimServices;
const action = 'application/soap+xml; charset=utf-8; action="http://www.portalfiscal.inf.br/nfe/wsdl/NFeStatusServico4/nfeStatusServicoNF"';

describe('SOAP front of the simulated SEFAZ', () => {
  it('extracts the data message byte for byte, prefixed or not', () => {
    const message = '<consStatServ xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb></consStatServ>';
    expect(
      extractDataMessage(`<s:Envelope xmlns:s="x"><s:Body><nfeDadosMsg xmlns="y">${message}</nfeDadosMsg></s:Body></s:Envelope>`),
    ).toBe(message);
    expect(
      extractDataMessage(`<s:Envelope xmlns:s="x" xmlns:w="y"><s:Body><w:nfeDadosMsg>\n${message}\n</w:nfeDadosMsg></s:Body></s:Envelope>`),
    ).toBe(message);
    expect(extractDataMessage('<s:Envelope xmlns:s="x"><s:Body/></s:Envelope>')).toBeUndefined();
  });

  it('refuses SOAP 1.1, another operation’s action, a DTD and a body without nfeDadosMsg', () => {
    const envelope = '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body/></s:Envelope>';
    expect(dispatchSoap(endpoint, call, noServices, 'text/xml; charset=utf-8', envelope).status).toBe(415);
    const other = dispatchSoap(
      endpoint,
      call,
      noServices,
      action.replace('NFeStatusServico4/nfeStatusServicoNF', 'NFeAutorizacao4/nfeAutorizacaoLote'),
      envelope,
    );
    expect(other).toMatchObject({ status: 500 });
    expect(other.body).toContain('<soap:Fault>');
    expect(dispatchSoap(endpoint, call, noServices, action, `<!DOCTYPE x [<!ENTITY e "e">]>${envelope}`).status).toBe(500);
    expect(dispatchSoap(endpoint, call, noServices, action, envelope).body).toContain('nfeDadosMsg not found');
  });
});
