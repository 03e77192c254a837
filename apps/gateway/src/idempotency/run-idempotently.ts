// The Idempotency-Key protocol around one operation:
//   no key                      → the operation runs, nothing is recorded;
//   key over 255 characters     → 422;
//   first call with the key     → the operation runs; its response (any status the operation decided, 2xx, 4xx, or
//                                 the 502 of an authorizer's rejection) is recorded for 24 h;
//   same key, same body         → the recorded response again (same status and body), nothing runs;
//   same key, another body      → 422;
//   same key while the first runs → 409.
// An unexpected failure (a 500) before the operation created anything frees the key at once, so a retry runs again;
// so does a response that cannot be recorded (the key must never stay locked by an attempt that ended).
// Every response is recorded and answered with its error list bounded (withBoundedErrors), the same bytes both ways.
// A crash leaves the row locked: after lockTtlMs another call may take the key over; if the dead call had already
// created its invoice the new holder answers for that invoice instead of creating a second one.
import { withBoundedErrors } from '../http/error-envelope.js';
import type { BeginResult, IdempotencyScope, IdempotencyStore, StoredResponse } from './idempotency-store.js';
import { requestFingerprint } from './request-fingerprint.js';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface IdempotentWork {
  /** The invoice a dead holder of the key created; answer for it rather than creating another. */
  resumeInvoiceId?: string;
  /** Call as soon as the invoice exists (PostgreSQL), before waiting for its outcome. */
  invoiceCreated(invoiceId: string): Promise<void>;
}

export interface IdempotentCall {
  store: IdempotencyStore;
  companyId: string;
  environment: 'homologation' | 'production';
  /** The raw header value, or undefined when absent. */
  key: string | undefined;
  /** e.g. "create_invoice" or "reissue_invoice:<id>": part of the fingerprint, so a key cannot be reused across targets. */
  operation: string;
  body: unknown;
  run(work: IdempotentWork): Promise<StoredResponse>;
}

const errorResponse = (status: number, detail: string): StoredResponse => ({ status, body: { detail } });

const bounded = (response: StoredResponse): StoredResponse => ({ ...response, body: withBoundedErrors(response.body) });

export async function runIdempotently(call: IdempotentCall): Promise<StoredResponse & { replayed?: boolean }> {
  if (call.key === undefined) return bounded(await call.run({ invoiceCreated: async () => undefined }));
  if (call.key.length === 0 || call.key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return errorResponse(422, `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (got ${call.key.length})`);
  }
  const scope: IdempotencyScope = { companyId: call.companyId, environment: call.environment, key: call.key };
  const begun: BeginResult = await call.store.begin(scope, call.operation, requestFingerprint(call.operation, call.body));
  switch (begun.kind) {
    case 'replay':
      return { ...begun.response, replayed: true };
    case 'mismatch':
      return errorResponse(422, 'Idempotency-Key was already used with a different request body; use a new key for a new request');
    case 'in_flight':
      return errorResponse(409, 'A request with this Idempotency-Key is still being processed; retry after it finishes');
    case 'acquired':
      break;
  }
  let created = begun.resumeInvoiceId !== undefined;
  try {
    const response = bounded(
      await call.run({
        ...(begun.resumeInvoiceId !== undefined ? { resumeInvoiceId: begun.resumeInvoiceId } : {}),
        invoiceCreated: async (invoiceId) => {
          created = true;
          await call.store.markInvoice(scope, invoiceId);
        },
      }),
    );
    await call.store.complete(scope, response);
    return response;
  } catch (error) {
    // Nothing was created: the key is free again. Once an invoice exists the row keeps its id, and the next call
    // after the lock TTL answers for that invoice instead of creating another (see idempotency-store.ts).
    if (!created) await call.store.release(scope).catch(() => undefined);
    throw error;
  }
}
