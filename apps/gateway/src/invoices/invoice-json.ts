// The JSON text of the invoice routes' answers. An invoice record's `amount` is a JSON number (SPEC.md, "Invoice
// record"), and money never passes through binary floating point (docs/architecture.md, invariant 8): the record
// holds the amount as its decimal text ("99.80", as numeric(15,2) stores it) and this writer emits that text as the
// number token itself (JSON.rawJSON), so `99.80` reaches the client digit for digit, whatever its size.
// The text is what the record keeps everywhere it travels, including the Idempotency-Key store (jsonb): a replay is
// written from the same text again, never from a number parsed back.

/** A decimal as text, written as a JSON number by invoiceJson. */
export type DecimalText = string & { readonly __decimalText: true };

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

export function decimalText(value: string): DecimalText {
  if (!DECIMAL.test(value)) throw new RangeError(`not a plain decimal: ${value}`);
  return value as DecimalText;
}

// ES2023 lib typings predate JSON.rawJSON (V8 ships it; Node ≥ 21).
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** An invoice record as the presenter builds it: it names itself by invoice_id and document_type. */
function isInvoiceRecord(holder: unknown): boolean {
  if (typeof holder !== 'object' || holder === null) return false;
  const record = holder as Record<string, unknown>;
  return typeof record['invoice_id'] === 'string' && typeof record['document_type'] === 'string';
}

/**
 * JSON.stringify, except that the `amount` of an invoice record (wherever it sits: the body itself, `data[i]` of the
 * list, `invoice` of the consult) is written as a number token from its decimal text.
 */
export function invoiceJson(body: unknown): string {
  return JSON.stringify(body, function (this: unknown, key: string, value: unknown) {
    if (key === 'amount' && typeof value === 'string' && DECIMAL.test(value) && isInvoiceRecord(this)) return rawJSON(value);
    return value;
  });
}
