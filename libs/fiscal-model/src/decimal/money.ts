// Decimal arithmetic for money, quantities and rates. Never binary floats: a JSON number is read through its
// shortest decimal string form (what JSON.stringify would print), so 0.1 is "0.1" and 0.1 + 0.2 computed by the
// client arrives as "0.30000000000000004" and is refused for its precision instead of silently rounded.
import { Decimal } from 'decimal.js';

/** Half-up rounding (the layout's convention), 40 significant digits: far beyond 13 integer + 10 decimal places. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;

export const ZERO = new Dec(0);
export const HUNDRED = new Dec(100);

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The canonical decimal string of a JSON value (string or number), or null when it is not a finite decimal.
 * Strings must be plain decimals ("12.50", "-3", no exponent, no thousands separator); numbers use their
 * shortest round-trip representation.
 */
export function decimalText(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return new Dec(String(value)).toFixed();
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return PLAIN_DECIMAL.test(trimmed) ? new Dec(trimmed).toFixed() : null;
  }
  return null;
}

/** Decimal places that matter: trailing zeros do not count ("10.500" has 1). */
export function decimalPlaces(value: string | Dec): number {
  return new Dec(value).decimalPlaces();
}

export function round2(value: Dec): Dec {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A fixed-places string, half-up: money("10.005") → "10.01". */
export function fixed(value: Dec | string, places: number): string {
  return new Dec(value).toFixed(places, Decimal.ROUND_HALF_UP);
}

/** TDec_1302 (13 integer digits, 2 places). */
export function money(value: Dec | string): string {
  return fixed(value, 2);
}

/** Rates (TDec_0302a04 and the RTC rates): 2 to 4 places, as many as the value needs. */
export function rate(value: Dec | string): string {
  const d = new Dec(value);
  return d.toFixed(Math.min(4, Math.max(2, d.decimalPlaces())), Decimal.ROUND_HALF_UP);
}

/** amount × percent / 100, rounded half-up to 2 places. */
export function percentOf(amount: Dec | string, percent: Dec | string): Dec {
  return round2(new Dec(amount).times(percent).dividedBy(HUNDRED));
}

export function sum(values: readonly (Dec | string)[]): Dec {
  return values.reduce<Dec>((acc, v) => acc.plus(v), ZERO);
}
