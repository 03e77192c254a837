// Reading amounts, quantities and rates out of the parsed request: decimal only, precision checked against what
// the XML can carry, sign checked, each failure with its own code and the field's path.
import { Dec, decimalPlaces, decimalText } from '../decimal/money.js';
import { type FieldError, type FieldErrorCode, fieldError } from './field-error.js';

export interface DecimalRule {
  readonly places: number;
  /** 'positive' (> 0) or 'non_negative' (≥ 0). */
  readonly sign: 'positive' | 'non_negative';
  /** Inclusive upper bound (rates ≤ 100, the layout's integer digits). */
  readonly max?: string;
}

/** Inside items the codes apply (ITEM_PRECISION_UNSUPPORTED, ITEM_VALUE_NOT_POSITIVE). */
function codesFor(field: string): { precision: FieldErrorCode; sign: FieldErrorCode } {
  return field.startsWith('items[')
    ? { precision: 'ITEM_PRECISION_UNSUPPORTED', sign: 'ITEM_VALUE_NOT_POSITIVE' }
    : { precision: 'FIELD_PRECISION_UNSUPPORTED', sign: 'FIELD_OUT_OF_RANGE' };
}

/** The canonical decimal string, or undefined after pushing an error. */
export function readDecimal(value: unknown, field: string, rule: DecimalRule, errors: FieldError[]): string | undefined {
  const text = decimalText(value);
  if (text === null) {
    errors.push(fieldError('FIELD_INVALID', field, 'Must be a decimal number (a JSON number or a string such as "12.50")', 'a decimal', value));
    return undefined;
  }
  const codes = codesFor(field);
  const places = decimalPlaces(text);
  if (places > rule.places) {
    errors.push(
      fieldError(codes.precision, field, `At most ${rule.places} decimal places are supported here; got ${places}`, `at most ${rule.places} decimal places`, value),
    );
    return undefined;
  }
  const d = new Dec(text);
  if (rule.sign === 'positive' ? d.lte(0) : d.lt(0)) {
    const expected = rule.sign === 'positive' ? 'greater than 0' : 'greater than or equal to 0';
    errors.push(fieldError(codes.sign, field, `Must be ${expected}`, expected, value));
    return undefined;
  }
  if (rule.max !== undefined && d.gt(rule.max)) {
    errors.push(fieldError('FIELD_OUT_OF_RANGE', field, `Must be at most ${rule.max}`, `at most ${rule.max}`, value));
    return undefined;
  }
  return text;
}

export const MONEY: DecimalRule = { places: 2, sign: 'non_negative', max: '9999999999999.99' };
export const POSITIVE_MONEY: DecimalRule = { places: 2, sign: 'positive', max: '9999999999999.99' };
export const PERCENT: DecimalRule = { places: 4, sign: 'non_negative', max: '100' };
/** Per-unit amounts (adRem, vAliqProd, vUnid): 4 places, the layout's TDec_1104. */
export const PER_UNIT: DecimalRule = { places: 4, sign: 'non_negative', max: '99999999999.9999' };
export const POSITIVE_QUANTITY: DecimalRule = { places: 4, sign: 'positive', max: '99999999999.9999' };
