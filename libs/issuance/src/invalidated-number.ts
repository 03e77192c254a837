// The end of an NF-e that lost the race for its number to the company's own invalidation of it (docs/amendments.md):
// reserved before the range was filed, inserted after, never sent. The invoice is `failed` with no authorizer code and
// this message. The gateway answers it 409 (the client's own concurrent request took the number), not the 503 of an
// authorizer that stayed unavailable. Recognised by its message until the invoice records why it failed in a column
// of its own, as invalidations do (`refused_for`).
const RACED_NUMBER = /^Number \d+ of series \d+ was invalidated \(invalidation [0-9a-f-]{36}\) before the document was sent$/;

export function invalidatedNumberMessage(number: number | bigint, series: number, invalidationId: string): string {
  return `Number ${number} of series ${series} was invalidated (invalidation ${invalidationId}) before the document was sent`;
}

export function lostNumberToInvalidation(invoice: { status: string; statusCode: string | null; statusMessage: string | null }): boolean {
  return invoice.status === 'failed' && invoice.statusCode === null && RACED_NUMBER.test(invoice.statusMessage ?? '');
}
