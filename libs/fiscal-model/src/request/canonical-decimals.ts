// Replaces every decimal leaf of a parsed object by its canonical string, checking each against its rule.
import { type DecimalRule, readDecimal } from './decimal-rules.js';
import type { FieldError } from './field-error.js';

export type DecimalSpec = { readonly [key: string]: DecimalRule | DecimalSpec };

function isRule(value: DecimalRule | DecimalSpec): value is DecimalRule {
  return typeof (value as DecimalRule).places === 'number';
}

export function canonicalizeDecimals<T>(value: T, spec: DecimalSpec, path: string, errors: FieldError[]): T {
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, rule] of Object.entries(spec)) {
    const current = out[key];
    if (current === undefined) continue;
    if (isRule(rule)) {
      const text = readDecimal(current, `${path}.${key}`, rule, errors);
      if (text !== undefined) out[key] = text;
    } else {
      out[key] = canonicalizeDecimals(current, rule, `${path}.${key}`, errors);
    }
  }
  return out as T;
}
