import { SEFAZ_SERVICES, type FiscalEnvironment } from './endpoint-types.js';
import { resolveNfseNacionalBaseUrls } from './nfse-nacional-endpoints.js';
import { listStateAuthorizers, resolveSefazEndpoint, UnknownEndpointError } from './resolve-sefaz-endpoint.js';

const ENVIRONMENTS: FiscalEnvironment[] = ['homologation', 'production'];
const STATE_SERVICES = SEFAZ_SERVICES.filter((s) => s !== 'NFeDistribuicaoDFe');
const SVC_AN = ['AC', 'AL', 'AP', 'CE', 'DF', 'ES', 'MG', 'PA', 'PB', 'PI', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO'];
const SVC_RS = ['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR'];

describe('resolveSefazEndpoint', () => {
  it('knows the 27 states', () => {
    expect(
      listStateAuthorizers()
        .map((s) => s.uf)
        .sort(),
    ).toEqual([...SVC_AN, ...SVC_RS].sort());
  });

  it.each(listStateAuthorizers().map((s) => s.uf))('%s resolves every service in both environments', (uf) => {
    for (const environment of ENVIRONMENTS) {
      for (const service of STATE_SERVICES) {
        const endpoint = resolveSefazEndpoint({ uf, environment, service });
        expect(endpoint.url).toMatch(/^https:\/\//);
        expect(endpoint.tpEmis).toBe(1);
        expect(endpoint.soapAction).toBe(`http://www.portalfiscal.inf.br/nfe/wsdl/${service}/${endpoint.method}`);
        expect(endpoint.version).toBe(service === 'NFeRecepcaoEvento4' ? '1.00' : '4.00');
      }
      const dist = resolveSefazEndpoint({ uf, environment, service: 'NFeDistribuicaoDFe' });
      expect(dist.authorizer).toBe('AN');
      expect(dist.stateCode).toBe('91');
      expect(dist.method).toBe('nfeDistDFeInteresse');
    }
  });

  it.each(SVC_AN)('%s falls back to SVC-AN with tpEmis 6', (uf) => {
    const endpoint = resolveSefazEndpoint({ uf, environment: 'production', service: 'NFeAutorizacao4', contingency: true });
    expect(endpoint).toMatchObject({ authorizer: 'SVC-AN', tpEmis: 6 });
    expect(endpoint.url).toBe('https://www.sefazvirtual.fazenda.gov.br/NFeAutorizacao4/NFeAutorizacao4.asmx');
  });

  it.each(SVC_RS)('%s falls back to SVC-RS with tpEmis 7', (uf) => {
    const endpoint = resolveSefazEndpoint({ uf, environment: 'homologation', service: 'NFeAutorizacao4', contingency: true });
    expect(endpoint).toMatchObject({ authorizer: 'SVC-RS', tpEmis: 7 });
    expect(endpoint.url).toBe('https://nfe-homologacao.svrs.rs.gov.br/ws/NfeAutorizacao/NFeAutorizacao4.asmx');
  });

  it('routes states to their own authorizer', () => {
    expect(resolveSefazEndpoint({ uf: 'SP', environment: 'production', service: 'NFeAutorizacao4' })).toMatchObject({
      authorizer: 'SP',
      stateCode: '35',
      url: 'https://nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx',
    });
    expect(resolveSefazEndpoint({ uf: 'SC', environment: 'production', service: 'NFeStatusServico4' }).authorizer).toBe('SVRS');
    expect(resolveSefazEndpoint({ uf: 'MA', environment: 'production', service: 'NFeStatusServico4' }).authorizer).toBe('SVAN');
  });

  it('sends manifestation events to AN', () => {
    const endpoint = resolveSefazEndpoint({ uf: 'SP', environment: 'production', service: 'NFeRecepcaoEvento4', national: true });
    expect(endpoint).toMatchObject({ authorizer: 'AN', stateCode: '91' });
    expect(endpoint.url).toBe('https://www.nfe.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx');
  });

  it('refuses what no authorizer serves', () => {
    expect(() => resolveSefazEndpoint({ uf: 'XX', environment: 'production', service: 'NFeAutorizacao4' })).toThrow(UnknownEndpointError);
    expect(() => resolveSefazEndpoint({ uf: 'SP', environment: 'production', service: 'NFeAutorizacao4', national: true })).toThrow(
      UnknownEndpointError,
    );
  });

  it('keeps the real path under the override, prefixed by authorizer and environment', () => {
    const hom = resolveSefazEndpoint(
      { uf: 'SC', environment: 'homologation', service: 'NFeAutorizacao4', contingency: true },
      { baseUrl: 'https://sim:8443/' },
    );
    expect(hom.url).toBe('https://sim:8443/SVC-AN/homologacao/NFeAutorizacao4/NFeAutorizacao4.asmx');
    const normal = resolveSefazEndpoint(
      { uf: 'MA', environment: 'homologation', service: 'NFeAutorizacao4' },
      { baseUrl: 'https://sim:8443' },
    );
    expect(normal.url).toBe('https://sim:8443/SVAN/homologacao/NFeAutorizacao4/NFeAutorizacao4.asmx');
  });
});

describe('resolveNfseNacionalBaseUrls', () => {
  it('gives the real bases per environment', () => {
    expect(resolveNfseNacionalBaseUrls('homologation')).toEqual({
      sefin: 'https://sefin.producaorestrita.nfse.gov.br/SefinNacional',
      adn: 'https://adn.producaorestrita.nfse.gov.br',
    });
    expect(resolveNfseNacionalBaseUrls('production').sefin).toBe('https://sefin.nfse.gov.br/SefinNacional');
  });

  it('maps onto the override host', () => {
    expect(resolveNfseNacionalBaseUrls('production', { baseUrl: 'https://sim:8443' })).toEqual({
      sefin: 'https://sim:8443/sefin/producao/SefinNacional',
      adn: 'https://sim:8443/adn/producao',
    });
  });
});
