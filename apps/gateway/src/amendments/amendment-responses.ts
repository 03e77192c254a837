// The answers of the amendment routes, as stored for an Idempotency-Key and sent: 200 when the authorizer registered
// the event, 502 `{ detail: { message, code } }` with its own words when it refused, 202 while still pending.
import type { AmendedInvoice, AmendmentRecord, InvalidationRecord } from '@talao/persistence';
import { refusedByAuthorizer } from '../http/authorizer-refusal.js';
import { requestIdOf, type Caller, type GatewayRequest, type GatewayResponse } from '../http/gateway-request.js';
import type { StoredResponse } from '../idempotency/idempotency-store.js';
import { type IdempotentCall, runIdempotently } from '../idempotency/run-idempotently.js';
import type { AmendmentsResources } from './amendments-resources.js';

export function presentAmendment(amendment: AmendmentRecord) {
  return {
    amendment_id: amendment.id,
    kind: amendment.kind,
    sequence: amendment.sequence,
    text: amendment.text,
    status: amendment.status,
    protocol: amendment.protocol,
    status_code: amendment.statusCode,
    status_message: amendment.statusMessage,
    registered_at: amendment.registeredAt?.toISOString() ?? null,
    created_at: amendment.createdAt.toISOString(),
  };
}

/** A numbering range as GET /invoices/invalidations shows it (and an NF-e's submissions, with its exchanges). */
export function presentInvalidation(invalidation: InvalidationRecord) {
  return {
    invalidation_id: invalidation.id,
    document_type: 'nfe',
    series: invalidation.series,
    number_start: invalidation.numberStart,
    number_end: invalidation.numberEnd,
    reason: invalidation.reason,
    status: invalidation.status,
    protocol: invalidation.protocol,
    status_code: invalidation.statusCode,
    status_message: invalidation.statusMessage,
    registered_at: invalidation.registeredAt?.toISOString() ?? null,
    created_at: invalidation.createdAt.toISOString(),
  };
}

/** The record as it stands after the wait window. */
export function amendmentOutcomeResponse(invoice: AmendedInvoice, amendment: AmendmentRecord): StoredResponse {
  if (amendment.status === 'rejected')
    return refusedByAuthorizer(amendment, 'The authorizer refused the event', { invoice_id: invoice.id, amendment_id: amendment.id });
  const registered = amendment.status === 'registered';
  const status = registered && amendment.kind === 'cancellation' ? 'cancelled' : invoice.status;
  return {
    status: registered ? 200 : 202,
    body: {
      invoice_id: invoice.id,
      document_type: invoice.documentType,
      access_key: invoice.accessKey,
      status,
      [amendment.kind]: presentAmendment(amendment),
    },
  };
}

/** Sends an answer of these routes (fresh or replayed for its Idempotency-Key); a fresh error carries the request id. */
export function sendAmendmentAnswer(res: GatewayResponse, response: StoredResponse & { replayed?: boolean }, requestId: string): void {
  const { replayed, ...plain } = response;
  for (const [name, value] of Object.entries(plain.headers ?? {})) res.setHeader(name, value);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  const body = plain.status >= 400 && !replayed && !('request_id' in plain.body) ? { ...plain.body, request_id: requestId } : plain.body;
  res.statusCode = plain.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/**
 * Runs an amendment route for the caller with the Idempotency-Key rules of issuance (`key` the header; a stored answer
 * is replayed) and sends the answer.
 */
export async function answerIdempotently(
  context: { resources: AmendmentsResources; caller: Caller; req: GatewayRequest; res: GatewayResponse; key: string | undefined },
  call: Pick<IdempotentCall, 'operation' | 'body' | 'run'>,
): Promise<void> {
  const { resources, caller, key } = context;
  const response = await runIdempotently({
    store: resources.invoices.idempotency,
    companyId: caller.company.id,
    environment: caller.environment,
    key,
    ...call,
  });
  sendAmendmentAnswer(context.res, response, requestIdOf(context.req));
}
