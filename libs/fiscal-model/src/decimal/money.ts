// Decimal arithmetic for money, quantities and rates. Never binary floats: a JSON number is read through its
// shortest decimal string form (what JSON.stringify would print), so 0.1 is "0.1" and 0.1 + 0.2 computed by the
// client arrives as "0.30000000000000004" and is refused for its precision instead of silently rounded.
import { Decimal } from 'decimal.js';

/** Half-up rounding (the layout's convention), 40 significant digits: far beyond 13 integer + 10 decimal places. */
const PRECISION = 40;
export const Dec = Decimal.clone({ precision: PRECISION, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;

export const ZERO = new Dec(0);
export const HUNDRED = new Dec(100);

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * What `new Dec(text).toFixed()` prints for a text matching PLAIN_DECIMAL, computed on the text itself: leading
 * zeros of the integer part and trailing zeros of the fraction dropped, no sign on zero. Request fields are read this
 * way on every request, and parsing each into a Decimal only to print it again was a visible share of the CPU.
 */
function canonicalPlainDecimal(text: string): string {
  const negative = text.charCodeAt(0) === 45; // '-'
  const dot = text.indexOf('.');
  const integerEnd = dot === -1 ? text.length : dot;
  let integerStart = negative ? 1 : 0;
  while (integerStart < integerEnd - 1 && text.charCodeAt(integerStart) === 48) integerStart++;
  let fractionEnd = text.length;
  if (dot !== -1) while (fractionEnd > dot + 1 && text.charCodeAt(fractionEnd - 1) === 48) fractionEnd--;
  const integer = text.slice(integerStart, integerEnd);
  const fraction = dot === -1 ? '' : text.slice(dot + 1, fractionEnd);
  if (integer === '0' && fraction === '') return '0';
  const unsigned = fraction === '' ? integer : `${integer}.${fraction}`;
  return negative ? `-${unsigned}` : unsigned;
}

/**
 * The canonical decimal string of a JSON value (string or number), or null when it is not a finite decimal.
 * Strings must be plain decimals ("12.50", "-3", no exponent, no thousands separator); numbers use their
 * shortest round-trip representation.
 */
export function decimalText(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const shortest = String(value);
    // Exponent forms (1e21, 1e-7) are expanded by Decimal.
    return PLAIN_DECIMAL.test(shortest) ? canonicalPlainDecimal(shortest) : new Dec(shortest).toFixed();
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return PLAIN_DECIMAL.test(trimmed) ? canonicalPlainDecimal(trimmed) : null;
  }
  return null;
}

/** Decimal places of a canonical decimal text (as decimalText returns it: no trailing zeros, no exponent). */
export function canonicalDecimalPlaces(text: string): number {
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** Decimal places that matter: trailing zeros do not count ("10.500" has 1). */
export function decimalPlaces(value: string | Dec): number {
  return asDec(value).decimalPlaces();
}

/** The value as a Dec: a Dec is returned as is (Decimals are immutable, so a copy would only cost). */
function asDec(value: Dec | string): Dec {
  return value instanceof Dec ? value : new Dec(value);
}

export function round2(value: Dec): Dec {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/**
 * The plain text of a value whose digits are all known without rounding: canonical (no trailing zeros), or null
 * for text Decimal must read itself (exponents, whitespace, hexadecimal) and for NaN / Infinity.
 */
function exactText(value: Dec | string): string | null {
  if (typeof value === 'string') return PLAIN_DECIMAL.test(value) ? canonicalPlainDecimal(value) : null;
  return value.isFinite() ? value.toFixed() : null;
}

/** Canonical text with at most `places` decimals, written with exactly `places`: what toFixed(places) prints. */
function padFraction(canonical: string, places: number): string {
  const have = canonicalDecimalPlaces(canonical);
  if (have === places) return canonical;
  return have === 0 ? `${canonical}.${'0'.repeat(places)}` : canonical + '0'.repeat(places - have);
}

/** A fixed-places string, half-up: money("10.005") → "10.01". */
export function fixed(value: Dec | string, places: number): string {
  // Most values already have at most `places` decimals (item amounts, zeros): padding their text is exact, and
  // much cheaper than Decimal's rounding machinery. Only a value that needs rounding goes through it.
  const text = exactText(value);
  if (text !== null && canonicalDecimalPlaces(text) <= places) return padFraction(text, places);
  return asDec(value).toFixed(places, Decimal.ROUND_HALF_UP);
}

/** TDec_1302 (13 integer digits, 2 places). */
export function money(value: Dec | string): string {
  return fixed(value, 2);
}

/** Rates (TDec_0302a04 and the RTC rates): 2 to 4 places, as many as the value needs. */
export function rate(value: Dec | string): string {
  const text = exactText(value);
  if (text !== null) {
    const places = canonicalDecimalPlaces(text);
    if (places <= 4) return padFraction(text, Math.max(2, places));
  }
  const d = asDec(value);
  return d.toFixed(Math.min(4, Math.max(2, d.decimalPlaces())), Decimal.ROUND_HALF_UP);
}

/** 1/100 exactly: multiplying by it is the same exact result as dividing by 100, without the long division. */
const ONE_HUNDREDTH = new Dec('0.01');

/** amount × percent / 100, rounded half-up to 2 places. */
export function percentOf(amount: Dec | string, percent: Dec | string): Dec {
  return round2(asDec(amount).times(percent).times(ONE_HUNDREDTH));
}

export function sum(values: readonly (Dec | string)[]): Dec {
  let total = ZERO;
  for (const value of values) {
    const d = value instanceof Dec ? value : new Dec(value);
    // Most amounts of an item are zero; adding one would only copy the (already rounded) running total.
    if (d.isZero()) continue;
    // 0 + d is d itself once it fits the precision (what plus would round it to).
    if (total === ZERO && d.precision() <= PRECISION) total = d;
    else total = total.plus(d);
  }
  return total;
}
