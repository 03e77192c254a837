// Early, explicit refusal of values the layout cannot carry: a builder throws a clear XmlBuildError naming the
// field instead of emitting XML that the authorizer (or our own XSD check) would reject later.
import { XmlBuildError } from './canonical-xml.js';

export function requirePattern(value: string, pattern: RegExp, field: string, expected: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new XmlBuildError(`${field}: expected ${expected}, received ${JSON.stringify(value)}`);
  }
  return value;
}

// The NF-e family's TString: printable, no leading/trailing blank, no line breaks.
const NFE_STRING = /^[!-\u00FF\u0100-\uFFFF](?:[ -\u00FF\u0100-\uFFFF]*[!-\u00FF\u0100-\uFFFF])?$/;

export function requireText(value: string, field: string, min: number, max: number): string {
  if (typeof value !== 'string' || value.length < min || value.length > max || !NFE_STRING.test(value)) {
    throw new XmlBuildError(
      `${field}: expected ${min}–${max} printable characters without leading/trailing blanks or line breaks, received ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function requireIntegerInRange(value: number, field: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new XmlBuildError(`${field}: expected an integer from ${min} to ${max}, received ${value}`);
  }
  return value;
}

export function padDigits(value: number | string, width: number, field: string): string {
  const text = String(value);
  if (!/^[0-9]+$/.test(text) || text.length > width) {
    throw new XmlBuildError(`${field}: expected at most ${width} digits, received ${JSON.stringify(text)}`);
  }
  return text.padStart(width, '0');
}

export const CNPJ_PATTERN = /^[0-9A-Z]{12}[0-9]{2}$/;
export const NUMERIC_CNPJ_PATTERN = /^[0-9]{14}$/;
export const CPF_PATTERN = /^[0-9]{11}$/;
export const NFE_ACCESS_KEY_PATTERN = /^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/;
export const UF_CODE_PATTERN = /^(1[1-7]|2[1-9]|3[1235]|4[1-3]|5[0-3])$/;
