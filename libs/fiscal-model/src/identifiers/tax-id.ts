// CPF / CNPJ by shape only. The issue forbids the old numeric check-digit rule: from July 2026 the CNPJ's first
// 12 characters may be letters (IN RFB 2.229/2024), and the platform leaves registration checks to the authorizer.

const CPF_SHAPE = /^\d{11}$/;
/** 12 base characters (A–Z or 0–9), then 2 digits — the layout's TCnpj from the alphanumeric-CNPJ schemas. */
const CNPJ_SHAPE = /^[0-9A-Z]{12}\d{2}$/;
/** Punctuation integrators commonly paste ("12.345.678/0001-95", "123.456.789-09"); removed before the check. */
const FORMATTING = /[.\-/\s]/g;

export type TaxIdKind = 'cpf' | 'cnpj';
export interface TaxId {
  readonly kind: TaxIdKind;
  /** Normalized: no punctuation, letters upper-case. */
  readonly value: string;
}

export function normalizeTaxId(value: string): string {
  return value.replace(FORMATTING, '').toUpperCase();
}

export function isCpfShape(value: string): boolean {
  return CPF_SHAPE.test(value);
}

export function isCnpjShape(value: string): boolean {
  return CNPJ_SHAPE.test(value);
}

/** 11 characters → CPF, 14 → CNPJ (decided by length after removing punctuation); anything else → null. */
export function parseTaxId(value: unknown): TaxId | null {
  if (typeof value !== 'string') return null;
  const normalized = normalizeTaxId(value);
  if (normalized.length === 11) return isCpfShape(normalized) ? { kind: 'cpf', value: normalized } : null;
  if (normalized.length === 14) return isCnpjShape(normalized) ? { kind: 'cnpj', value: normalized } : null;
  return null;
}
