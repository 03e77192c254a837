// Zod issues → FieldError, one per issue, in the order the schema reports them (document order of the shape).
import type { z } from 'zod';
import { type FieldError, type FieldErrorCode, fieldError, fieldPath } from './field-error.js';

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

export function schemaErrors(error: z.ZodError, body: unknown): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const field = fieldPath(issue.path);
    const received = valueAt(body, issue.path);
    if ((received === undefined || received === null) && issue.code !== 'unrecognized_keys' && issue.code !== 'custom') {
      out.push(
        fieldError('FIELD_REQUIRED', field, 'This field is required', 'expected' in issue ? String(issue.expected) : 'a value', null),
      );
      continue;
    }
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const path = fieldPath([...issue.path, key]);
          out.push(fieldError('FIELD_UNKNOWN', path, `Unknown field "${key}"`, 'no such field', valueAt(body, [...issue.path, key])));
        }
        break;
      case 'invalid_type':
        out.push(fieldError('FIELD_INVALID', field, `Expected ${issue.expected}`, issue.expected, received));
        break;
      case 'too_big': {
        const code: FieldErrorCode =
          issue.origin === 'string'
            ? 'FIELD_TOO_LONG'
            : issue.origin === 'array'
              ? field === 'items'
                ? 'ITEMS_TOO_MANY'
                : 'FIELD_OUT_OF_RANGE'
              : 'FIELD_OUT_OF_RANGE';
        const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' entries' : '';
        out.push(fieldError(code, field, `At most ${String(issue.maximum)}${unit}`, `at most ${String(issue.maximum)}${unit}`, received));
        break;
      }
      case 'too_small': {
        const empty = issue.origin === 'string' || issue.origin === 'array';
        out.push(
          empty && issue.minimum === 1
            ? fieldError(
                'FIELD_REQUIRED',
                field,
                issue.origin === 'array' ? 'At least one entry is required' : 'Must not be empty',
                'a non-empty value',
                received,
              )
            : fieldError('FIELD_OUT_OF_RANGE', field, `At least ${String(issue.minimum)}`, `at least ${String(issue.minimum)}`, received),
        );
        break;
      }
      case 'invalid_value':
        out.push(fieldError('FIELD_INVALID', field, `Must be one of: ${issue.values.join(', ')}`, issue.values.join(', '), received));
        break;
      case 'custom': {
        const code = (issue.params as { code?: FieldErrorCode } | undefined)?.code ?? 'FIELD_INVALID';
        out.push(fieldError(code, field, issue.message, 'printable Latin-1 text', received));
        break;
      }
      default:
        out.push(
          fieldError(
            'FIELD_INVALID',
            field,
            issue.message,
            issue.code === 'invalid_format' ? `format ${issue.format}` : 'a valid value',
            received,
          ),
        );
    }
  }
  return out;
}
