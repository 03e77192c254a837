// Replaces every decimal leaf of a parsed object by its canonical string, checking each against its rule.
import { type DecimalRule, readDecimal } from './decimal-rules.js';
import type { FieldError } from './field-error.js';

export type DecimalSpec = { readonly [key: string]: DecimalRule | DecimalSpec };

function isRule(value: DecimalRule | DecimalSpec): value is DecimalRule {
  return typeof (value as DecimalRule).places === 'number';
}

type SpecEntry = readonly [key: string, rule: DecimalRule | undefined, nested: DecimalSpec | undefined];

/** The specs are module constants: their entries are listed once, not on every request. */
const entriesBySpec = new WeakMap<DecimalSpec, readonly SpecEntry[]>();
function entriesOf(spec: DecimalSpec): readonly SpecEntry[] {
  let entries = entriesBySpec.get(spec);
  if (!entries) {
    entries = Object.entries(spec).map(([key, rule]): SpecEntry => (isRule(rule) ? [key, rule, undefined] : [key, undefined, rule]));
    entriesBySpec.set(spec, entries);
  }
  return entries;
}

export function canonicalizeDecimals<T>(value: T, spec: DecimalSpec, path: string, errors: FieldError[]): T {
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, rule, nested] of entriesOf(spec)) {
    const current = out[key];
    if (current === undefined) continue;
    if (rule) {
      const text = readDecimal(current, `${path}.${key}`, rule, errors);
      if (text !== undefined) out[key] = text;
    } else {
      out[key] = canonicalizeDecimals(current, nested!, `${path}.${key}`, errors);
    }
  }
  return out as T;
}
