// The 44-character access key (chave de acesso) of NF-e / NFC-e and its modulus-11 check digit.
// Layout: cUF(2) AAMM(4) CNPJ/CPF(14) mod(2) serie(3) nNF(9) tpEmis(1) cNF(8) cDV(1).
// The check digit is computed over each character's ASCII code − 48, so the alphanumeric CNPJ (letters A–Z give
// 17–42) works with the same rule the digits always used (NT 2025.001).

export interface AccessKeyParts {
  /** IBGE state code of the issuer, 2 digits (number or string). */
  readonly cUF: string | number;
  /** Year and month of issue, 'YYMM'. */
  readonly yearMonth: string;
  /** Issuer CNPJ (14 chars, alphanumeric allowed) or CPF (zero-padded to 14). */
  readonly cnpjOrCpf: string;
  /** 55 (NF-e) or 65 (NFC-e). */
  readonly model: string | number;
  /** 0–999. */
  readonly series: number;
  /** 1–999999999. */
  readonly number: number;
  /** tpEmis, 1–9. */
  readonly emissionType: number;
  /** cNF, 8 digits. */
  readonly numericCode: string;
}

const KEY_SHAPE = /^\d{6}[0-9A-Z]{12}\d{26}$/;

/**
 * Modulus 11 with weights 2..9 from the right, remainder 0 or 1 → 0: the check digit of the national keys (NF-e's
 * 44 characters, NFS-e's 50 digits). Letters of the alphanumeric CNPJ count as their code point minus 48.
 */
export function modulus11CheckDigit(body: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += (body.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** The NF-e access key's check digit over its first 43 characters. */
export function accessKeyCheckDigit(first43: string): number {
  if (!/^[0-9A-Z]{43}$/.test(first43)) throw new RangeError('the access key body must be 43 characters 0-9/A-Z');
  return modulus11CheckDigit(first43);
}

function digits(value: string | number, width: number, name: string): string {
  const text = String(value);
  if (!/^\d+$/.test(text) || text.length > width) throw new RangeError(`${name} must be at most ${width} digits`);
  return text.padStart(width, '0');
}

export function buildAccessKey(parts: AccessKeyParts): string {
  const issuer = parts.cnpjOrCpf.length === 11 ? parts.cnpjOrCpf.padStart(14, '0') : parts.cnpjOrCpf;
  if (!/^[0-9A-Z]{12}\d{2}$/.test(issuer)) throw new RangeError('cnpjOrCpf must be a CNPJ (14) or CPF (11)');
  if (!/^\d{2}(0[1-9]|1[0-2])$/.test(parts.yearMonth)) throw new RangeError('yearMonth must be YYMM');
  if (!Number.isInteger(parts.series) || parts.series < 0 || parts.series > 999) throw new RangeError('series must be 0-999');
  if (!Number.isInteger(parts.number) || parts.number < 1 || parts.number > 999_999_999) {
    throw new RangeError('number must be 1-999999999');
  }
  if (!Number.isInteger(parts.emissionType) || parts.emissionType < 1 || parts.emissionType > 9) {
    throw new RangeError('emissionType must be 1-9');
  }
  if (!/^\d{8}$/.test(parts.numericCode)) throw new RangeError('numericCode must be 8 digits');
  const body =
    digits(parts.cUF, 2, 'cUF') +
    parts.yearMonth +
    issuer +
    digits(parts.model, 2, 'model') +
    digits(parts.series, 3, 'series') +
    digits(parts.number, 9, 'number') +
    String(parts.emissionType) +
    parts.numericCode;
  return body + String(accessKeyCheckDigit(body));
}

export function isAccessKeyValid(key: string): boolean {
  return KEY_SHAPE.test(key) && accessKeyCheckDigit(key.slice(0, 43)) === key.charCodeAt(43) - 48;
}

/** The parts of a well-formed key (check digit not verified: call isAccessKeyValid for that). */
export function parseAccessKey(key: string): (AccessKeyParts & { checkDigit: number }) | null {
  if (!KEY_SHAPE.test(key)) return null;
  return {
    cUF: key.slice(0, 2),
    yearMonth: key.slice(2, 6),
    cnpjOrCpf: key.slice(6, 20),
    model: key.slice(20, 22),
    series: Number(key.slice(22, 25)),
    number: Number(key.slice(25, 34)),
    emissionType: Number(key.slice(34, 35)),
    numericCode: key.slice(35, 43),
    checkDigit: Number(key.slice(43)),
  };
}
