// The end of an NF-e that lost the race for its number to the company's own invalidation of it (docs/architecture.md,
// "A number reserved before a filing"): reserved before the range was filed, inserted after, never sent. The invoice is `failed` with no authorizer code,
// this message, and the invalidation in `invalidatedById`. The gateway answers it 409 (the client's own concurrent
// request took the number), not the 503 of an authorizer that stayed unavailable.

export function invalidatedNumberMessage(number: number | bigint, series: number, invalidationId: string): string {
  return `Number ${number} of series ${series} was invalidated (invalidation ${invalidationId}) before the document was sent`;
}

export function lostNumberToInvalidation(invoice: { status: string; invalidatedById: string | null }): boolean {
  return invoice.status === 'failed' && invoice.invalidatedById !== null;
}
