// The one error shape of the invoice request: the gateway answers 422 with detail = errors[0] (and may add all).

export const FIELD_ERROR_CODES = [
  // structure (from the schema)
  'FIELD_REQUIRED', // a required field is absent or null
  'FIELD_INVALID', // wrong type, format or enumeration value
  'FIELD_UNKNOWN', // a field the request does not define (typo protection)
  'FIELD_TOO_LONG', // text longer than the layout allows
  'FIELD_OUT_OF_RANGE', // number or list size outside its bounds
  'FIELD_CHARACTERS_UNSUPPORTED', // characters the XML layout cannot carry (outside Latin-1, control characters)
  'FIELD_NOT_APPLICABLE', // a field that does not apply to this document type or configuration
  'FIELD_PRECISION_UNSUPPORTED', // more decimal places than the layout carries (outside items)
  // recipient (client_name, tax_id, recipient_address)
  'TAX_ID_INVALID',
  'CITY_CODE_UNKNOWN',
  'STATE_CITY_MISMATCH',
  'ADDRESS_REQUIRED',
  'FINAL_CONSUMER_REQUIRED',
  // items
  'ITEM_TOTAL_MISMATCH',
  'ITEM_AMOUNT_MISSING',
  'ITEM_DISCOUNT_EXCEEDS_GROSS',
  'ITEM_PRECISION_UNSUPPORTED',
  'ITEM_VALUE_NOT_POSITIVE',
  'ITEMS_TOO_MANY',
  'CFOP_DESTINATION_MISMATCH',
  'GTIN_CHECK_DIGIT_INVALID',
  'PRODUCT_REQUIRED',
  'TAX_REQUIRED',
  'TAX_CODE_REGIME_MISMATCH',
  'TAX_FIELD_REQUIRED',
  'TAX_FIELD_NOT_APPLICABLE',
  'IBS_CBS_REQUIRED',
  'SERVICE_CODE_REQUIRED',
  'SERVICE_CODE_UNKNOWN',
  'SERVICE_CODES_MIXED',
  // document
  'REFERENCE_REQUIRED',
  'PAYMENT_TOTAL_INSUFFICIENT',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export interface FieldError {
  readonly code: FieldErrorCode;
  /** JSON path of the offending field: "recipient_address.city_code", "items[0].amount"; "" for the whole body. */
  readonly field: string;
  /** A sentence for a person, in English. */
  readonly message: string;
  /** What would have been accepted ("2 decimal places", "12.35", "one of: nfe, nfse"). */
  readonly expected: string;
  /** The value received (long strings cut to 100 characters); null when absent. */
  readonly received: unknown;
}

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function shownValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string' && value.length > 100) return `${value.slice(0, 100)}…`;
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? '[array]' : '[object]';
  return value;
}

export function fieldError(code: FieldErrorCode, field: string, message: string, expected: string, received: unknown): FieldError {
  return { code, field, message, expected, received: shownValue(received) };
}
