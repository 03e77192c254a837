// GET /invoices/{access_key}: the stored record and, beside it, what the authorizer says now (authorizer-consult.ts).
// The authorizer being down is not the API's failure: the record is answered with the authorizer part marked unavailable.
import type { InvoiceRecord } from '@talao/persistence';
import type { AuthorizerView, ConsultScope } from './authorizer-consult.js';
import type { DocumentLookup } from './document-request.js';
import type { InvoicesResources } from './invoices-resources.js';

/** The company's invoice the lookup names; null for anything not the company's (never consulted) or for no lookup. */
export async function findCompanyInvoice(
  resources: InvoicesResources,
  scope: ConsultScope,
  lookup: DocumentLookup | undefined,
): Promise<InvoiceRecord | null> {
  if (!lookup) return null;
  // By access key through the (company, access_key) index; the DPS id is the NFS-e's key until it is authorized.
  const invoice =
    'id' in lookup
      ? await resources.invoices.findForCompany(scope.companyId, lookup.id)
      : await resources.invoices.findByAccessKey(scope.companyId, scope.environment, lookup.accessKey);
  if (!invoice || invoice.environment !== scope.environment || invoice.documentType !== scope.documentType) return null;
  return invoice;
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
