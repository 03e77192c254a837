// Reading amounts, quantities and rates out of the parsed request: decimal only, precision checked against what
// the XML can carry, sign checked, each failure with its own code and the field's path.
import { canonicalDecimalPlaces, Dec, decimalText } from '../decimal/money.js';
import { type FieldError, type FieldErrorCode, fieldError } from './field-error.js';

export interface DecimalRule {
  readonly places: number;
  /** 'positive' (> 0) or 'non_negative' (≥ 0). */
  readonly sign: 'positive' | 'non_negative';
  /** Inclusive upper bound (rates ≤ 100, the layout's integer digits). */
  readonly max?: string;
}

const ITEM_CODES = { precision: 'ITEM_PRECISION_UNSUPPORTED', sign: 'ITEM_VALUE_NOT_POSITIVE' } as const;
const DOCUMENT_CODES = { precision: 'FIELD_PRECISION_UNSUPPORTED', sign: 'FIELD_OUT_OF_RANGE' } as const;

/** Inside items the codes apply (ITEM_PRECISION_UNSUPPORTED, ITEM_VALUE_NOT_POSITIVE). */
function codesFor(field: string): { precision: FieldErrorCode; sign: FieldErrorCode } {
  return field.startsWith('items[') ? ITEM_CODES : DOCUMENT_CODES;
}

const integerDigits = (text: string) => {
  const dot = text.indexOf('.');
  return dot === -1 ? text.length : dot;
};

/** Each rule's bound parsed once (the rules are a handful of constants). */
const maxima = new Map<string, { value: Dec; integerDigits: number }>();

/** text (canonical, non-negative) > max. Fewer integer digits than the bound decides without parsing. */
function exceeds(text: string, max: string): boolean {
  let bound = maxima.get(max);
  if (!bound) {
    const value = new Dec(max);
    bound = { value, integerDigits: integerDigits(value.toFixed()) };
    maxima.set(max, bound);
  }
  if (integerDigits(text) < bound.integerDigits) return false;
  return new Dec(text).gt(bound.value);
}

/** The canonical decimal string, or undefined after pushing an error. */
export function readDecimal(value: unknown, field: string, rule: DecimalRule, errors: FieldError[]): string | undefined {
  const text = decimalText(value);
  if (text === null) {
    errors.push(
      fieldError('FIELD_INVALID', field, 'Must be a decimal number (a JSON number or a string such as "12.50")', 'a decimal', value),
    );
    return undefined;
  }
  const places = canonicalDecimalPlaces(text);
  if (places > rule.places) {
    const codes = codesFor(field);
    errors.push(
      fieldError(
        codes.precision,
        field,
        `At most ${rule.places} decimal places are supported here; got ${places}`,
        `at most ${rule.places} decimal places`,
        value,
      ),
    );
    return undefined;
  }
  // The canonical text carries the sign: "0" is the only zero, a leading "-" the only negative.
  const negative = text.charCodeAt(0) === 45;
  if (negative || (rule.sign === 'positive' && text === '0')) {
    const expected = rule.sign === 'positive' ? 'greater than 0' : 'greater than or equal to 0';
    errors.push(fieldError(codesFor(field).sign, field, `Must be ${expected}`, expected, value));
    return undefined;
  }
  if (rule.max !== undefined && exceeds(text, rule.max)) {
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
