// GET /invoices/{access_key}: the stored record and, beside it, what the authorizer says now (authorizer-consult.ts).
// The authorizer being down is not the API's failure: the record is answered with the authorizer part marked unavailable.
import type { InvoiceRecord } from '@talao/persistence';
import type { AuthorizerView, ConsultScope } from './authorizer-consult.js';
import type { InvoicesResources } from './invoices-resources.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

export async function consultAuthorizer(
  resources: InvoicesResources,
  scope: ConsultScope,
  invoice: InvoiceRecord,
): Promise<AuthorizerView> {
  const stored = await resources.certificates.findActive(scope.companyId);
  if (!stored) return { available: false, reason: 'the company has no active certificate to consult with' };
  return (await resources.authorizerConsult()).consult(scope, invoice, stored);
}
