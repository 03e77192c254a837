import { randomInt } from 'node:crypto';
import { modulus11CheckDigit } from '@talao/fiscal-model';

/**
 * The NFS-e access key (50 digits, nfse_nacional_api.md): municipality of issue (7) + ambGer (1) + registration type
 * (1: 1 CPF, 2 CNPJ) + CPF/CNPJ (14, zero-padded) + nNFSe (13) + year and month AAMM (4) + random code (9) + check
 * digit (1). The check digit is modulus 11 with weights 2–9 from the right, 0 when the remainder is below 2 — the
 * rule of the other national keys.
 */
export function nfseAccessKey(parts: { municipality: string; ambGer: '1' | '2'; taxId: string; number: number; issuedAt: Date }): string {
  const registration = parts.taxId.length === 11 ? '1' : '2';
  const yymm = `${String(parts.issuedAt.getUTCFullYear() % 100).padStart(2, '0')}${String(parts.issuedAt.getUTCMonth() + 1).padStart(2, '0')}`;
  const body =
    parts.municipality +
    parts.ambGer +
    registration +
    parts.taxId.padStart(14, '0') +
    String(parts.number).padStart(13, '0') +
    yymm +
    String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  if (!/^\d{49}$/.test(body)) throw new Error('NFS-e key parts must be digits');
  return body + String(modulus11CheckDigit(body));
}
