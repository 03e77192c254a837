// Query strings of the invoice routes, read strictly: a parameter the route does not define is refused (a typo such as
// `?statuss=issued` would otherwise list everything), and every refusal is a 422 in the same shape as the request
// body's: `detail` = the first field error, `errors` = all of them.
import type { FieldError, FieldErrorCode } from '@talao/fiscal-model';
import type { z } from 'zod';

export interface QueryParameter {
  /** What would be accepted, for the field error ("one of: nfe, nfse"). */
  readonly expected: string;
}

export type QueryParsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const shown = (value: unknown) => (value === undefined ? null : Array.isArray(value) ? value.map(String) : String(value));

function codeOf(issue: z.core.$ZodIssue, received: unknown): FieldErrorCode {
  if (received === undefined) return 'FIELD_REQUIRED';
  if (issue.code === 'too_big' || issue.code === 'too_small') return 'FIELD_OUT_OF_RANGE';
  return 'FIELD_INVALID';
}

/** Parses `query` with a strict object schema whose keys are `parameters`; field errors name each parameter. */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  parameters: Readonly<Record<string, QueryParameter>>,
  query: unknown,
): QueryParsed<z.output<S>> {
  const input = (query ?? {}) as Record<string, unknown>;
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const known = Object.keys(parameters);
  const errors: FieldError[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({
          code: 'FIELD_UNKNOWN',
          field: key,
          message: `Unknown query parameter "${key}"`,
          expected: known.length > 0 ? `one of: ${known.join(', ')}` : 'no query parameters',
          received: shown(input[key]),
        });
      }
      continue;
    }
    const field = String(issue.path[0] ?? '');
    const received = input[field];
    const expected = parameters[field]?.expected ?? issue.message;
    const message =
      received === undefined
        ? `${field} is required`
        : Array.isArray(received)
          ? `${field} was given more than once`
          : `${field} must be ${expected}`;
    errors.push({ code: codeOf(issue, received), field, message, expected, received: shown(received) });
  }
  return { ok: false, errors };
}
