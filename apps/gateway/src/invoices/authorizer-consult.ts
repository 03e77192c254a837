// What the authorizer says now of one invoice (GET /invoices/{access_key}): NF-e consSitNFe, NFS-e Sefin GET /nfse/{key}
// or, before authorization, GET /dps/{id}, asked with the company's own certificate. Loaded on the first consult only
// (consult-invoice.ts): the clients bring the XML and signing libraries, which the gateway's issuance path never needs.
import {
  type AuthorizerOutcome,
  type FiscalEnvironment,
  issuedInContingency,
  MutualTlsAgentPool,
  NfseNacionalClient,
  SefazClient,
} from '@talao/authorizer-clients';
import { CertificateCache } from '@talao/authorizer-exchange';
import type { InvoiceRecord } from '@talao/persistence';

export interface ConsultScope {
  companyId: string;
  companyState: string;
  environment: FiscalEnvironment;
  documentType: 'nfe' | 'nfse';
}

export type AuthorizerView =
  | { available: true; outcome: string; code: string; message: string; protocol: string | null; response_xml: string | null }
  | { available: false; reason: string };

export interface AuthorizerConsultOptions {
  caBundlePem?: string;
  baseUrls: Partial<Record<FiscalEnvironment, string>>;
  connectTimeoutMs: number;
  readTimeoutMs: number;
}

function viewOf(outcome: AuthorizerOutcome<unknown>): AuthorizerView {
  if (outcome.status === 'unavailable' || outcome.status === 'unknown')
    return { available: false, reason: `${outcome.status}: ${outcome.detail}` };
  const last = outcome.exchanges.at(-1);
  return {
    available: true,
    outcome: outcome.status,
    code: outcome.code,
    message: outcome.message,
    protocol: outcome.protocol ?? null,
    response_xml: last?.response?.body ?? null,
  };
}

export class AuthorizerConsult {
  private readonly agents: MutualTlsAgentPool;
  private readonly sefaz: SefazClient;
  private readonly nfse: NfseNacionalClient;
  private readonly certificates = new CertificateCache();

  constructor(options: AuthorizerConsultOptions) {
    this.agents = new MutualTlsAgentPool(options.caBundlePem ? { caBundlePem: options.caBundlePem } : {});
    const timeouts = { connectMs: options.connectTimeoutMs, readMs: options.readTimeoutMs };
    this.sefaz = new SefazClient({ agents: this.agents, baseUrlOverrides: options.baseUrls, timeouts });
    this.nfse = new NfseNacionalClient({ agents: this.agents, baseUrlOverrides: options.baseUrls, timeouts });
  }

  async consult(
    scope: ConsultScope,
    invoice: InvoiceRecord,
    certificate: { id: string; pkcs12: Buffer; password: string },
  ): Promise<AuthorizerView> {
    let credentials;
    try {
      credentials = this.certificates.load(certificate.id, certificate.pkcs12, certificate.password).credentials;
    } catch (error) {
      return { available: false, reason: `the certificate cannot be used: ${(error as Error).message}` };
    }
    try {
      if (invoice.documentType === 'nfe') {
        if (!invoice.accessKey) return { available: false, reason: 'the invoice has no access key yet' };
        const ctx = {
          credentials,
          environment: scope.environment,
          uf: scope.companyState,
          contingency: issuedInContingency(invoice.accessKey),
        };
        return viewOf(await this.sefaz.consultProtocol(ctx, invoice.accessKey));
      }
      const ctx = { credentials, environment: scope.environment };
      if (invoice.accessKey && invoice.accessKey.length === 50) return viewOf(await this.nfse.getNfse(ctx, invoice.accessKey));
      if (invoice.dpsId) return viewOf(await this.nfse.findDps(ctx, invoice.dpsId));
      return { available: false, reason: 'the invoice has no DPS id yet' };
    } catch (error) {
      return { available: false, reason: (error as Error).message };
    }
  }

  /**
   * The ADN's official DANFSe of an authorized NFS-e (GET /danfse/{key}), asked with the company's certificate: the
   * PDF bytes, or why the ADN did not give them (the route answers 502 then: the authorizer is unavailable).
   */
  async officialDanfse(
    environment: FiscalEnvironment,
    accessKey: string,
    certificate: { id: string; pkcs12: Buffer; password: string },
  ): Promise<{ ok: true; pdf: Buffer } | { ok: false; message: string; code?: string }> {
    try {
      const { credentials } = this.certificates.load(certificate.id, certificate.pkcs12, certificate.password);
      const outcome = await this.nfse.prepareDanfse({ credentials, environment }, accessKey).send();
      // A refusal is the authority's own code and message; otherwise what kept it from answering.
      if (outcome.status === 'rejected') return { ok: false, message: outcome.message, code: outcome.code };
      if ('detail' in outcome) return { ok: false, message: `The national environment is ${outcome.status}: ${outcome.detail}` };
      return { ok: true, pdf: Buffer.from(outcome.result.pdfBase64, 'base64') };
    } catch (error) {
      return { ok: false, message: `The national environment could not be asked: ${(error as Error).message}` };
    }
  }

  destroy(): void {
    this.agents.destroy();
  }
}
