// What invoices.request holds: the body as the service read it (a reissue validates it again, against the company
// as it is now) and the validated, normalized request the worker computes the document from. "As read": what the
// request ignores (an NFS-e line's product.br, unit, barcode, code) is not stored.
import { acceptedRequestBody, type ValidatedInvoiceRequest } from '@talao/fiscal-model';

export interface StoredRequest {
  body: Record<string, unknown>;
  validated: ValidatedInvoiceRequest;
}

export function storedRequest(body: unknown, validated: ValidatedInvoiceRequest): StoredRequest {
  return { body: acceptedRequestBody(body) as Record<string, unknown>, validated };
}

function asStored(value: unknown): StoredRequest {
  const stored = value as Partial<StoredRequest> | null;
  if (!stored || typeof stored !== 'object' || !stored.body || !stored.validated)
    throw new Error('invoice request is not in the stored shape { body, validated }');
  return stored as StoredRequest;
}

export function validatedRequestOf(value: unknown): ValidatedInvoiceRequest {
  return asStored(value).validated;
}

/** The body to reissue: the same sale, without the number the first attempt used (a reissue takes a new one). */
export function requestBodyOf(value: unknown): Record<string, unknown> {
  const { number: _spent, ...body } = asStored(value).body;
  return body;
}
