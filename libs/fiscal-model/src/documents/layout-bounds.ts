// The largest values the documents (and the invoice record) can carry, checked when a request is validated: a
// value past them used to pass validation and fail later — in PostgreSQL (total_amount is numeric(15,2)) or in the
// issuer's XSD check, which the sweeper then re-drove for ever. Each input has its own bound already
// (decimal-rules.ts); these are the values computed from several inputs: a line's amount (quantity × unit price),
// its unit price (amount ÷ quantity) and the document's totals.
//   NF-e TDec_1302 (vProd, vBC, vICMS, vNF, every total): 13 integer digits, 2 places — also numeric(15,2).
//   NF-e TDec_1110v (vUnCom, vUnTrib): 11 integer digits, up to 10 places.
//   NFS-e: vServ is TDec_1502 (15 integer digits), but the record's total is numeric(15,2): 13.
import { Dec, type Dec as DecType } from '../decimal/money.js';
import { type FieldError, fieldError } from '../request/field-error.js';
import type { NfeTotals } from './compute-totals.js';

export const MAX_DOCUMENT_AMOUNT = '9999999999999.99';
export const MAX_UNIT_PRICE = '99999999999.9999999999';

const maxAmount = new Dec(MAX_DOCUMENT_AMOUNT);
const maxUnitPrice = new Dec(MAX_UNIT_PRICE);

/** A line's computed amount, or an NF-e line's unit price, past what its XML element carries; null when they fit. */
export function lineValuesBeyondLayout(
  path: string,
  documentType: 'nfe' | 'nfse',
  values: { gross: DecType; unitPrice: DecType },
  received: { quantity: unknown; amount: unknown },
): FieldError | null {
  if (values.gross.gt(maxAmount)) {
    return fieldError(
      'FIELD_OUT_OF_RANGE',
      `${path}.product.quantity`,
      `quantity × unit_price = ${values.gross.toFixed(2)} exceeds ${MAX_DOCUMENT_AMOUNT}, the largest line amount a document carries (13 integer digits)`,
      `a line amount of at most ${MAX_DOCUMENT_AMOUNT}`,
      received.quantity,
    );
  }
  // The DPS carries no unit price: an NFS-e line may have any quantity.
  if (documentType === 'nfe' && values.unitPrice.gt(maxUnitPrice)) {
    return fieldError(
      'FIELD_OUT_OF_RANGE',
      `${path}.amount`,
      `amount ÷ quantity = ${values.unitPrice.toFixed()} exceeds ${MAX_UNIT_PRICE}, the largest unit price an NF-e carries (vUnCom, 11 integer digits)`,
      `a unit price of at most ${MAX_UNIT_PRICE}`,
      received.amount,
    );
  }
  return null;
}

function firstBeyond(group: object, prefix: string): [string, string] | null {
  for (const [name, value] of Object.entries(group)) {
    if (typeof value === 'string') {
      if (new Dec(value).gt(maxAmount)) return [`${prefix}${name}`, value];
    } else if (value && typeof value === 'object') {
      const found = firstBeyond(value as object, `${prefix}${name}.`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The first NF-e total (ICMSTot, IBSCBSTot) past 13 integer digits. Every computed value of a line is summed into
 * one of these totals and none is negative, so bounding the totals bounds the lines' computed values too.
 */
export function nfeTotalsBeyondLayout(totals: NfeTotals): FieldError | null {
  const found = firstBeyond(totals.ICMSTot, 'ICMSTot.') ?? (totals.IBSCBSTot ? firstBeyond(totals.IBSCBSTot, 'IBSCBSTot.') : null);
  if (!found) return null;
  const [name, value] = found;
  return fieldError(
    'FIELD_OUT_OF_RANGE',
    'items',
    `The document's ${name} would be ${value}, more than ${MAX_DOCUMENT_AMOUNT}, the largest total an NF-e carries (13 integer digits, TDec_1302)`,
    `totals of at most ${MAX_DOCUMENT_AMOUNT}`,
    value,
  );
}

/** The NFS-e's service value (Σ amount + freight + insurance + other expenses) past what the invoice record holds. */
export function nfseTotalBeyondLayout(
  lines: readonly { gross: string; freight: string; insurance: string; otherExpenses: string }[],
): FieldError | null {
  let total = new Dec(0);
  for (const line of lines) total = total.plus(line.gross).plus(line.freight).plus(line.insurance).plus(line.otherExpenses);
  if (total.lte(maxAmount)) return null;
  return fieldError(
    'FIELD_OUT_OF_RANGE',
    'items',
    `The items add up to ${total.toFixed(2)}, more than ${MAX_DOCUMENT_AMOUNT}, the largest total an invoice carries (13 integer digits)`,
    `a total of at most ${MAX_DOCUMENT_AMOUNT}`,
    total.toFixed(2),
  );
}
