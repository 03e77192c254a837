import {
  type FiscalEnvironment,
  type SefazAuthorizer,
  type SefazEndpointRow,
  type SefazService,
  type StateAuthorizerRow,
} from './endpoint-types.js';
import { SEFAZ_ENDPOINT_ROWS } from './generated/sefaz-endpoints.js';
import { STATE_AUTHORIZER_ROWS } from './generated/state-authorizers.js';

export interface SefazEndpointQuery {
  /** Issuer's state (two letters). */
  uf: string;
  environment: FiscalEnvironment;
  service: SefazService;
  /** SVC contingency (SVC-AN or SVC-RS as the state's table says). */
  contingency?: boolean;
  /** Ambiente Nacional: manifestation events. NFeDistribuicaoDFe always goes to AN. */
  national?: boolean;
}

export interface SefazEndpointOverrides {
  /**
   * Points every SEFAZ call at another host (the simulator). The real path is kept, prefixed by the authorizer and
   * the environment, because several authorizers share paths (SVAN/SVC-AN, SVRS/SVC-RS) and homologation and
   * production share paths on different hosts: `<baseUrl>/<authorizer>/<homologacao|producao><real path>`,
   * e.g. `https://127.0.0.1:8443/SP/homologacao/ws/nfeautorizacao4.asmx`.
   */
  baseUrl?: string;
}

export interface SefazEndpoint {
  url: string;
  authorizer: SefazAuthorizer;
  environment: FiscalEnvironment;
  /** WSDL operation: namespace suffix of `nfeDadosMsg` / `nfeResultMsg`. */
  operation: SefazService;
  /** SOAP body operation (`nfeAutorizacaoLote`, …). */
  method: string;
  /** SOAP 1.2 action (`http://www.portalfiscal.inf.br/nfe/wsdl/<operation>/<method>`). */
  soapAction: string;
  /** `versao` of the data message. */
  version: string;
  /** IBGE code of the issuer's state (cUF), 91 for AN. */
  stateCode: string;
  /** tpEmis of documents sent there: 1 normal, 6 SVC-AN, 7 SVC-RS. */
  tpEmis: 1 | 6 | 7;
}

export class UnknownEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownEndpointError';
  }
}

export const NFE_WSDL_NAMESPACE_BASE = 'http://www.portalfiscal.inf.br/nfe/wsdl/';
/** cOrgao of the Ambiente Nacional. */
export const NATIONAL_ENVIRONMENT_CODE = '91';

const ENVIRONMENT_SEGMENT: Record<FiscalEnvironment, string> = { homologation: 'homologacao', production: 'producao' };

const rowIndex = new Map<string, SefazEndpointRow>();
for (const row of SEFAZ_ENDPOINT_ROWS) rowIndex.set(`${row.authorizer}|${row.environment}|${row.operation}`, row);
const stateIndex = new Map<string, StateAuthorizerRow>(STATE_AUTHORIZER_ROWS.map((s) => [s.uf, s]));

export function findStateAuthorizer(uf: string): StateAuthorizerRow | undefined {
  return stateIndex.get(uf.toUpperCase());
}

export function listStateAuthorizers(): readonly StateAuthorizerRow[] {
  return STATE_AUTHORIZER_ROWS;
}

export function listSefazEndpointRows(): readonly SefazEndpointRow[] {
  return SEFAZ_ENDPOINT_ROWS;
}

/** Path the simulator serves for a real endpoint URL: `/<authorizer>/<homologacao|producao><real path>`. */
export function simulatedSefazPath(row: Pick<SefazEndpointRow, 'authorizer' | 'environment' | 'url'>): string {
  return `/${row.authorizer}/${ENVIRONMENT_SEGMENT[row.environment]}${new URL(row.url).pathname}`;
}

function joinBase(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

export function resolveSefazEndpoint(query: SefazEndpointQuery, overrides: SefazEndpointOverrides = {}): SefazEndpoint {
  const state = findStateAuthorizer(query.uf);
  if (!state) throw new UnknownEndpointError(`unknown state ${query.uf}`);
  const national = query.service === 'NFeDistribuicaoDFe' || query.national === true;
  if (national && query.service !== 'NFeDistribuicaoDFe' && query.service !== 'NFeRecepcaoEvento4') {
    throw new UnknownEndpointError(`${query.service} is not served by the Ambiente Nacional`);
  }
  if (national && query.contingency) throw new UnknownEndpointError('the Ambiente Nacional has no SVC contingency');

  const authorizer = national ? 'AN' : query.contingency ? state.contingencyAuthorizer : state.authorizer;
  const row = rowIndex.get(`${authorizer}|${query.environment}|${query.service}`);
  if (!row) throw new UnknownEndpointError(`${authorizer} has no ${query.service} in ${query.environment}`);

  const tpEmis = national || !query.contingency ? 1 : state.contingencyAuthorizer === 'SVC-AN' ? 6 : 7;
  return {
    url: overrides.baseUrl ? joinBase(overrides.baseUrl, simulatedSefazPath(row)) : row.url,
    authorizer: authorizer as SefazAuthorizer,
    environment: query.environment,
    operation: query.service,
    method: row.method,
    soapAction: `${NFE_WSDL_NAMESPACE_BASE}${row.operation}/${row.method}`,
    version: row.version,
    stateCode: national ? NATIONAL_ENVIRONMENT_CODE : state.code,
    tpEmis,
  };
}
