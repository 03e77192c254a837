// What the create side records of a document before it exists: the key it will carry (the NF-e access key, or the
// DPS id) and its total. The document itself is computed once, by the worker that signs it; computeNfeDocument and
// computeDpsDocument derive the key and the total with these same functions, so what an invoice records at creation
// is what its document says.
import type { IssuerProfile } from '../request/issuer-profile.js';
import type { ValidatedInvoiceRequest } from '../request/validated-request.js';
import { dpsId, dpsTotal } from './compute-dps.js';
import { nfeAccessKey } from './compute-nfe.js';
import { takeItemComputation } from './item-computation.js';

export type DocumentIdentity =
  | { readonly documentType: 'nfe'; readonly accessKey: string; readonly totalAmount: string }
  | { readonly documentType: 'nfse'; readonly dpsId: string; readonly totalAmount: string };

export interface IdentityContext {
  readonly series: number;
  readonly number: number;
  readonly invoiceId: string;
  /** dhEmi: the invoice's creation time. */
  readonly issuedAt: Date;
}

export function documentIdentity(request: ValidatedInvoiceRequest, issuer: IssuerProfile, context: IdentityContext): DocumentIdentity {
  if (request.documentType === 'nfe') {
    // vNF as the validation computed it (handed over, not computed again).
    const { totals } = takeItemComputation(request.items, request.finalConsumer);
    return { documentType: 'nfe', accessKey: nfeAccessKey(issuer, context), totalAmount: totals.ICMSTot.vNF };
  }
  return {
    documentType: 'nfse',
    dpsId: dpsId(issuer.address.cityCode, issuer.taxId, context.series, context.number),
    totalAmount: dpsTotal(request.items),
  };
}
