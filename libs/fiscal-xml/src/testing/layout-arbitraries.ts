// Test support: fast-check arbitraries of the layouts' simple types shared by the NF-e and DPS document arbitraries:
// digit strings, tax ids (CNPJ alphanumeric too), text with the characters XML must escape, decimals in the layouts'
// formats (TDec_1302, TDec_0302a04, TDec_1104, TDec_1110).
import fc from 'fast-check';

export const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
export const cnpjAlnum = fc
  .tuple(fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 12, maxLength: 12 }), digits(2))
  .map(([a, b]) => a + b);
export const cnpj = fc.oneof(digits(14), cnpjAlnum);

// Printable Latin-1 plus the characters escaping must handle; no leading/trailing blank (TString).
export const textChar = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789 ') },
  { weight: 2, arbitrary: fc.constantFrom(...'&<>"\'çãéÇÃÉºª°/-.,;:') },
);
export const text = (min: number, max: number) =>
  fc
    .string({ unit: textChar, minLength: min, maxLength: max })
    .map((s) => s.trim())
    .filter((s) => s.length >= min && !/ {2}/.test(s));

export const cents = (max = 1_000_000_00) =>
  fc.integer({ min: 1, max }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
export const money = cents();
export const rate = fc.integer({ min: 1, max: 9999 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
export const qty4 = fc
  .integer({ min: 1, max: 99_999_999 })
  .map((q) => `${Math.floor(q / 10_000) + 1}.${String(q % 10_000).padStart(4, '0')}`);
export const price10 = fc
  .integer({ min: 1, max: 2_000_000_000 })
  .map((v) => `${Math.floor(v / 1_000_000)}.${String(v % 1_000_000).padStart(6, '0')}0000`);
