// Reissue: only a `rejected` or `failed` invoice, with its stored items, under a new number, as a new invoice linked
// by reissueOfId. It goes through every check of a fresh issuance (configuration, quota) and is charged like one.
import { InvalidInvoiceStateError, InvoiceNotFoundError } from '../errors.js';
import type { EnvironmentName } from '../ports.js';
import { type CreateInvoiceDeps, type CreatedInvoice, persistAndEnqueue, prepareIssuance } from './create-invoice.js';
import { requestBodyOf } from './stored-request.js';

export interface ReissueCommand {
  companyId: string;
  environment: EnvironmentName;
  invoiceId: string;
}

const REISSUABLE = new Set(['rejected', 'failed']);

export async function reissueInvoice(deps: CreateInvoiceDeps, command: ReissueCommand): Promise<CreatedInvoice> {
  const now = deps.now?.() ?? new Date();
  const original = await deps.invoices.findForCompany(command.companyId, command.invoiceId);
  // Another environment's invoice is as invisible as another company's.
  if (!original || original.environment !== command.environment) throw new InvoiceNotFoundError(command.invoiceId);
  if (!REISSUABLE.has(original.status)) {
    throw new InvalidInvoiceStateError(original.id, original.status, `Only rejected or failed invoices can be reissued; this one is ${original.status}`);
  }
  const prepared = await prepareIssuance(deps, command.companyId, command.environment, requestBodyOf(original.request), now);
  return persistAndEnqueue(deps, prepared, { environment: command.environment, now, reissueOfId: original.id });
}
