// GTIN-8, -12 (UPC-A), -13 (EAN) and -14: GS1 modulus-10 check digit, weights 3 and 1 from the rightmost data digit.

const GTIN_SHAPE = /^(\d{8}|\d{12}|\d{13}|\d{14})$/;

/** The check digit for the data digits (a GTIN without its last digit). */
export function gtinCheckDigit(dataDigits: string): number {
  let sum = 0;
  for (let i = 0; i < dataDigits.length; i++) {
    const digit = dataDigits.charCodeAt(dataDigits.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export function isGtinShape(value: string): boolean {
  return GTIN_SHAPE.test(value);
}

/** True for an 8/12/13/14-digit GTIN whose check digit is right. */
export function isValidGtin(value: string): boolean {
  if (!isGtinShape(value)) return false;
  return gtinCheckDigit(value.slice(0, -1)) === value.charCodeAt(value.length - 1) - 48;
}

/** The text the layout requires in cEAN / cEANTrib when the product has no GTIN. */
export const NO_GTIN = 'SEM GTIN';
