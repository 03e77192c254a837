// Generic mutations of a JSON request body: they walk whatever shape the body has (no field names written here),
// so the hostile suite keeps working when the request shapes change.

export type JsonPath = readonly (string | number)[];

/** "items[0].description", as the gateway names a field in its errors. */
export function fieldName(path: JsonPath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

/** Every primitive leaf (string, number, boolean) of the value, with its path. */
export function leaves(value: unknown, path: JsonPath = []): [JsonPath, string | number | boolean][] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [];
}

/** Every object inside the value (itself included), with its path. */
export function objects(value: unknown, path: JsonPath = []): [JsonPath, Record<string, unknown>][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => objects(item, [...path, i]));
  if (!value || typeof value !== 'object') return [];
  const own: [JsonPath, Record<string, unknown>] = [path, value as Record<string, unknown>];
  return [own, ...Object.entries(value).flatMap(([key, item]) => objects(item, [...path, key]))];
}

/** A deep copy with the value at `path` replaced. */
export function withValueAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? withValueAt(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head as string]: withValueAt(object[head as string], rest, replacement) };
}

/** Looks like an amount, a quantity or a count (a JSON number, or a decimal string). */
export function isNumeric(leaf: unknown): boolean {
  return typeof leaf === 'number' || (typeof leaf === 'string' && /^-?\d+(\.\d+)?$/.test(leaf));
}

/** A value of another JSON type than the leaf's, picked in turn so every type is tried across leaves. */
export function otherType(leaf: unknown, turn: number): unknown {
  const choices = [['an', 'array'], { an: 'object' }, null, true, 12345.678, 'text'];
  const others = choices.filter((choice) => typeof choice !== typeof leaf || (Array.isArray(choice) && !Array.isArray(leaf)));
  return others[turn % others.length];
}

export const OVERFLOWING_NUMBERS: readonly string[] = [
  '1e400', // a JSON number past double range: parsed as Infinity
  '-1e400',
  '1.7976931348623157e308',
  '9007199254740993', // 2^53 + 1
  '"99999999999999999999999999.99"',
  '"9999999999999.99"',
  '"0.00000000000000000001"',
  '-1',
  '"1e5"',
  '2147483648',
];

/**
 * The body's JSON text with `key` inserted as the first member of the object at `path` (text, because an object
 * literal cannot carry a duplicate key and JSON.stringify drops or rewrites `__proto__`).
 */
export function withRawMember(body: unknown, path: JsonPath, key: string, rawValue: string): string {
  const marker = 'zz_hostile_member_zz';
  const target = path.reduce<unknown>((node, part) => (node as Record<string | number, unknown>)[part], body) as Record<string, unknown>;
  const text = JSON.stringify(withValueAt(body, path, { [marker]: 0, ...target }));
  return text.replace(`"${marker}":0`, `${JSON.stringify(key)}:${rawValue}`);
}

/** `depth` levels of arrays around a value, as JSON text (never built as a nested value: that could overflow here). */
export function nestedText(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}
