// What every worker that talks to the authorizers holds: the SEFAZ and Sefin/ADN clients on one pool of mutual TLS
// agents (a company's agent is reused across its calls), and the parsed certificates. Built once per process from
// the `authorizers` settings of @talao/config.
import { readFileSync } from 'node:fs';
import { MutualTlsAgentPool, NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import { CertificateCache } from './certificate-cache.js';

export interface AuthorizerConnectionSettings {
  /** Per environment, the base URL replacing the official ones (the simulator in tests and local runs). */
  baseUrls: Partial<Record<'homologation' | 'production', string>>;
  /** PEM file of the CAs the authorizers' TLS certificates chain to, besides Node's (the simulator's CA). */
  caBundleFile?: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
}

export interface AuthorizerConnections {
  readonly sefaz: SefazClient;
  readonly nfse: NfseNacionalClient;
  readonly certificateCache: CertificateCache;
  /** Closes the agents' sockets. */
  close(): void;
}

export function openAuthorizerConnections(settings: AuthorizerConnectionSettings): AuthorizerConnections {
  const { caBundleFile, baseUrls, connectTimeoutMs, readTimeoutMs } = settings;
  const agents = new MutualTlsAgentPool(caBundleFile ? { caBundlePem: readFileSync(caBundleFile, 'utf8') } : {});
  const clientOptions = { agents, baseUrlOverrides: baseUrls, timeouts: { connectMs: connectTimeoutMs, readMs: readTimeoutMs } };
  return {
    sefaz: new SefazClient(clientOptions),
    nfse: new NfseNacionalClient(clientOptions),
    certificateCache: new CertificateCache(),
    close: () => agents.destroy(),
  };
}
