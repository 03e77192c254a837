// Reissue: only a `rejected` or `failed` invoice, with its stored items, under a new number, as a new invoice linked
// by reissueOfId. It goes through every check of a fresh issuance (configuration, quota) and is charged like one.
// An attempt is reissued once: a second reissue answers AlreadyReissuedError naming the invoice that replaced it. The
// check below answers the common case early; the unique invoices.reissue_of_id decides a race between two reissues
// (the later insert conflicts, and the repository reports the winner), so one rejected attempt can never become two
// authorized documents.
import { AlreadyReissuedError as ReissueTakenError } from '@talao/persistence';
import { AlreadyReissuedError, InvalidInvoiceStateError, InvoiceNotFoundError } from '../errors.js';
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
    throw new InvalidInvoiceStateError(
      original.id,
      original.status,
      `Only rejected or failed invoices can be reissued; this one is ${original.status}`,
    );
  }
  const replacement = await deps.invoices.findReplacement(original.id);
  if (replacement) throw new AlreadyReissuedError(original.id, replacement);
  const prepared = await prepareIssuance(deps, command.companyId, command.environment, requestBodyOf(original.request), now);
  try {
    return await persistAndEnqueue(deps, prepared, { environment: command.environment, now, reissueOfId: original.id });
  } catch (error) {
    if (error instanceof ReissueTakenError) throw new AlreadyReissuedError(error.invoiceId, error.replacementId);
    throw error;
  }
}
