import { type FiscalEnvironment } from './endpoint-types.js';

/** Base URLs of the NFS-e Nacional APIs (nfse_nacional_api.md: "Environments"). */
export interface NfseNacionalBaseUrls {
  /** Sefin Nacional: POST /nfse, GET /nfse/{chave}, HEAD|GET /dps/{id}, POST /nfse/{chave}/eventos. */
  sefin: string;
  /** ADN: /contribuintes/DFe/{NSU}, /danfse/{chave}. */
  adn: string;
}

const REAL: Record<FiscalEnvironment, NfseNacionalBaseUrls> = {
  homologation: {
    sefin: 'https://sefin.producaorestrita.nfse.gov.br/SefinNacional',
    adn: 'https://adn.producaorestrita.nfse.gov.br',
  },
  production: { sefin: 'https://sefin.nfse.gov.br/SefinNacional', adn: 'https://adn.nfse.gov.br' },
};

const ENVIRONMENT_SEGMENT: Record<FiscalEnvironment, string> = { homologation: 'homologacao', production: 'producao' };

/** Path prefixes the simulator serves, mirroring the real base paths: `/sefin/<env>/SefinNacional`, `/adn/<env>`. */
export function simulatedNfsePrefixes(environment: FiscalEnvironment): NfseNacionalBaseUrls {
  const env = ENVIRONMENT_SEGMENT[environment];
  return { sefin: `/sefin/${env}${new URL(REAL[environment].sefin).pathname}`, adn: `/adn/${env}` };
}

export function resolveNfseNacionalBaseUrls(environment: FiscalEnvironment, overrides: { baseUrl?: string } = {}): NfseNacionalBaseUrls {
  if (!overrides.baseUrl) return { ...REAL[environment] };
  const base = overrides.baseUrl.replace(/\/+$/, '');
  const prefixes = simulatedNfsePrefixes(environment);
  return { sefin: `${base}${prefixes.sefin}`, adn: `${base}${prefixes.adn}` };
}
