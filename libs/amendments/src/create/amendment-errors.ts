import { CHARSET_CODE, isCharsetIssue } from '@talao/fiscal-model';
import type { z } from 'zod';

// A request refused before anything is stored or sent: the HTTP status and the `detail` the gateway answers.
export class AmendmentRefused extends Error {
  override readonly name = 'AmendmentRefused';

  constructor(
    readonly status: 404 | 409 | 422,
    readonly detail: string | Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

export const invoiceNotFound = () => new AmendmentRefused(404, 'Invoice not found');

/**
 * The 422 for a body its schema refused: the first problem, naming its field (an unknown field by its name; text the
 * layout cannot carry with FIELD_CHARACTERS_UNSUPPORTED, as the invoice request answers it).
 */
export function bodyRefusal(error: z.ZodError): AmendmentRefused {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || (issue && 'keys' in issue ? String((issue.keys as string[])[0]) : 'body');
  return new AmendmentRefused(422, {
    code: isCharsetIssue(issue) ? CHARSET_CODE : 'FIELD_INVALID',
    field,
    message: issue?.code === 'unrecognized_keys' ? `unknown field ${field}` : `${field}: ${issue?.message ?? 'invalid'}`,
  });
}
