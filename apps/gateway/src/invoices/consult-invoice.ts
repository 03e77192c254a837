// GET /invoices/{access_key}: the stored record and, beside it, what the authorizer says now (NF-e consSitNFe,
// NFS-e Sefin GET /nfse/{key} or, before authorization, GET /dps/{id}), asked with the company's own certificate.
// The authorizer being down is not the API's failure: the record is answered with the authorizer part marked unavailable.
import type { AuthorizerOutcome } from '@talao/authorizer-clients';
import type { InvoiceRecord } from '@talao/persistence';
import type { InvoicesResources } from './invoices-resources.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ConsultScope {
  companyId: string;
  companyState: string;
  environment: 'homologation' | 'production';
  documentType: 'nfe' | 'nfse';
}

/** The company's invoice by access key, DPS id or invoice id; null for anything not the company's (never consulted). */
export async function findCompanyInvoice(resources: InvoicesResources, scope: ConsultScope, key: string): Promise<InvoiceRecord | null> {
  const invoice = UUID.test(key)
    ? await resources.invoices.findForCompany(scope.companyId, key)
    : await findByDocumentKey(resources, scope, key);
  if (!invoice || invoice.environment !== scope.environment || invoice.documentType !== scope.documentType) return null;
  return invoice;
}

async function findByDocumentKey(resources: InvoicesResources, scope: ConsultScope, key: string): Promise<InvoiceRecord | null> {
  if (!/^(?:[0-9]{44}|[0-9]{50}|DPS[0-9]{42})$/.test(key)) return null;
  // Through the (company, access_key) index; the DPS id is the NFS-e's key until it is authorized.
  return resources.invoices.findByAccessKey(scope.companyId, scope.environment, key);
}

export type AuthorizerView =
  | { available: true; outcome: string; code: string; message: string; protocol: string | null; response_xml: string | null }
  | { available: false; reason: string };

function viewOf(outcome: AuthorizerOutcome<unknown>): AuthorizerView {
  if (outcome.status === 'unavailable' || outcome.status === 'unknown') return { available: false, reason: `${outcome.status}: ${outcome.detail}` };
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

export async function consultAuthorizer(resources: InvoicesResources, scope: ConsultScope, invoice: InvoiceRecord): Promise<AuthorizerView> {
  const stored = await resources.certificates.findActive(scope.companyId);
  if (!stored) return { available: false, reason: 'the company has no active certificate to consult with' };
  let credentials;
  try {
    const loaded = resources.certificateCache.load(stored.id, stored.pkcs12, stored.password);
    credentials = { privateKeyPem: loaded.certificate.privateKeyPem, certificatePem: loaded.certificate.certificatePem };
  } catch (error) {
    return { available: false, reason: `the certificate cannot be used: ${(error as Error).message}` };
  }
  try {
    if (invoice.documentType === 'nfe') {
      if (!invoice.accessKey) return { available: false, reason: 'the invoice has no access key yet' };
      const tpEmis = invoice.accessKey.charAt(34);
      const ctx = { credentials, environment: scope.environment, uf: scope.companyState, contingency: tpEmis === '6' || tpEmis === '7' };
      return viewOf(await resources.sefaz.consultProtocol(ctx, invoice.accessKey));
    }
    const ctx = { credentials, environment: scope.environment };
    if (invoice.accessKey && invoice.accessKey.length === 50) return viewOf(await resources.nfse.getNfse(ctx, invoice.accessKey));
    if (invoice.dpsId) return viewOf(await resources.nfse.findDps(ctx, invoice.dpsId));
    return { available: false, reason: 'the invoice has no DPS id yet' };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
}
