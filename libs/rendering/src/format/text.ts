// Formatting of the XML's values for print, as strings from strings: decimal values are never turned into floats
// (a total printed from a float could differ from the XML by a cent), dates are printed in the offset they were
// written in (the issuer's local time), not converted to the server's zone.

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every value from the XML goes through this before it enters the HTML. */
export function escapeHtml(value: string | undefined): string {
  return (value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function groupThousands(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * A decimal string of the XML ("1234.5") in Brazilian notation ("1.234,50"), padded to `minDecimals` and trimmed of
 * trailing zeros beyond it, never rounded (the XML's own precision is printed). Not a decimal: returned as given.
 */
export function formatDecimal(value: string | undefined, minDecimals = 2): string {
  if (value === undefined || value === '') return '';
  const match = DECIMAL.exec(value.trim());
  if (!match) return value;
  const [, sign, integer, fraction = ''] = match;
  let decimals = fraction.replace(/0+$/, '');
  if (decimals.length < minDecimals) decimals = decimals.padEnd(minDecimals, '0');
  const grouped = groupThousands(String(integer).replace(/^0+(?=\d)/, ''));
  return `${sign}${grouped}${decimals ? `,${decimals}` : ''}`;
}

/** Money: two decimals, thousands grouped. */
export function formatMoney(value: string | undefined): string {
  return formatDecimal(value, 2);
}

/** A value the block always prints: "0,00" when the XML has none. */
export function formatMoneyOrZero(value: string | undefined): string {
  return value === undefined || value === '' ? '0,00' : formatMoney(value);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/;

/** "2026-03-10T12:00:01-03:00" → "10/03/2026" (the date as written, in its own offset). */
export function formatDate(value: string | undefined): string {
  const match = value ? DATE_TIME.exec(value) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}

/** "2026-03-10T12:00:01-03:00" → "12:00:01". */
export function formatTime(value: string | undefined): string {
  const match = value ? DATE_TIME.exec(value) : null;
  return match?.[4] ? `${match[4]}:${match[5]}:${match[6] ?? '00'}` : '';
}

export function formatDateTime(value: string | undefined): string {
  const date = formatDate(value);
  const time = formatTime(value);
  return time ? `${date} ${time}` : date;
}

/** CNPJ (numeric or alphanumeric, 14 characters) or CPF (11 digits) with its punctuation; anything else as given. */
export function formatTaxId(value: string | undefined): string {
  if (!value) return '';
  if (/^[0-9A-Z]{12}\d{2}$/.test(value))
    return `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`;
  if (/^\d{11}$/.test(value)) return `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9)}`;
  return value;
}

export function formatPostalCode(value: string | undefined): string {
  return value && /^\d{8}$/.test(value) ? `${value.slice(0, 5)}-${value.slice(5)}` : (value ?? '');
}

/** The access key as the manual prints it: groups of four digits separated by a space. */
export function groupAccessKey(key: string): string {
  return key.replace(/(.{4})(?=.)/g, '$1 ');
}

/** "1234" → "000.001.234": the NF-e number printed with nine digits in groups of three. */
export function formatNfeNumber(value: string): string {
  return value.padStart(9, '0').replace(/(\d{3})(\d{3})(\d{3})/, '$1.$2.$3');
}

/** Joins the parts that are present with `separator`. */
export function joinPresent(parts: ReadonlyArray<string | undefined>, separator = ', '): string {
  return parts.filter((p): p is string => p !== undefined && p.trim() !== '').join(separator);
}
