// The refusal of a range whose numbers are in use (an NF-e that reached the authorizer, or one being issued). Usually
// found when the range is filed (409 at once); rarely by the invalidate job, which looks again before its first
// transmission (a number reserved before the filing and inserted after it): the range is then `rejected` with this
// message, no authorizer code and `refused_for` = numbers_in_use, and the gateway answers it as the same 409.
import type { InvalidationConflict } from '@talao/persistence';
import { AmendmentRefused } from './amendment-errors.js';

const PREFIX = 'Numbers of the range reached the authorizer and cannot be invalidated: ';

export function numbersInUseMessage(invoices: readonly InvalidationConflict[]): string {
  return `${PREFIX}${invoices.map((i) => `${i.number} (invoice ${i.invoiceId}, ${i.status})`).join(', ')}`.slice(0, 500);
}

export function numbersInUseRefusal(invoices: readonly InvalidationConflict[]): AmendmentRefused {
  return new AmendmentRefused(409, {
    code: 'NUMBERS_AT_AUTHORIZER',
    message: numbersInUseMessage(invoices),
    numbers: invoices.map((i) => ({ number: i.number, invoice_id: i.invoiceId, status: i.status })),
  });
}

/** A range the invalidate job refused on the service's own records (nothing was sent to the authorizer). */
export function refusedForNumbersInUse(invalidation: { status: string; refusedFor: string | null }): boolean {
  return invalidation.status === 'rejected' && invalidation.refusedFor === 'numbers_in_use';
}
