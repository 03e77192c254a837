/** Authorizers of NF-e model 55: the states with their own SEFAZ, the virtual ones, the SVC contingencies and AN. */
export type SefazAuthorizer =
  'AM' | 'BA' | 'GO' | 'MG' | 'MS' | 'MT' | 'PE' | 'PR' | 'RS' | 'SP' | 'SVAN' | 'SVRS' | 'SVC-AN' | 'SVC-RS' | 'AN';

export type FiscalEnvironment = 'homologation' | 'production';

/** WSDL operation names (the namespace suffix of `nfeDadosMsg`). */
export type SefazService =
  | 'NFeAutorizacao4'
  | 'NFeRetAutorizacao4'
  | 'NFeConsultaProtocolo4'
  | 'NFeRecepcaoEvento4'
  | 'NFeInutilizacao4'
  | 'NFeStatusServico4'
  | 'NFeDistribuicaoDFe';

export const SEFAZ_SERVICES: readonly SefazService[] = [
  'NFeAutorizacao4',
  'NFeRetAutorizacao4',
  'NFeConsultaProtocolo4',
  'NFeRecepcaoEvento4',
  'NFeInutilizacao4',
  'NFeStatusServico4',
  'NFeDistribuicaoDFe',
];

export interface SefazEndpointRow {
  authorizer: string;
  environment: FiscalEnvironment;
  operation: string;
  /** SOAP body operation of the WSDL (e.g. `nfeAutorizacaoLote`). */
  method: string;
  /** `versao` of the data message. */
  version: string;
  url: string;
}

export interface StateAuthorizerRow {
  uf: string;
  /** IBGE state code (cUF). */
  code: string;
  authorizer: string;
  contingencyAuthorizer: string;
}
