import { COUNTRIES } from './generated/countries.js';
import { SERVICE_CODES } from './generated/service-codes.js';

const serviceCodes = new Set(SERVICE_CODES);
const countries = new Map(COUNTRIES.map(([iso, name]) => [iso, name]));

/** True when the 6-digit cTribNac is in the NFS-e national service list. */
export function isNationalServiceCode(code: string): boolean {
  return serviceCodes.has(code);
}

/**
 * "1.07" → "010701" (desdobro 01), "01.07.02" → "010702", "010702" → itself; null for another shape.
 * The shape "1.07" is the LC 116 item.subitem integrators know; the national list adds the desdobro.
 */
export function normalizeServiceCode(value: string): string | null {
  const dotted = /^(\d{1,2})\.(\d{2})(?:\.(\d{2}))?$/.exec(value);
  if (dotted) return dotted[1]!.padStart(2, '0') + dotted[2]! + (dotted[3] ?? '01');
  return /^\d{6}$/.test(value) ? value : null;
}

/** Portuguese country name by ISO alpha-2 (the NFS-e table), or undefined. */
export function findCountryName(iso2: string): string | undefined {
  return countries.get(iso2.toUpperCase());
}
