// Building blocks of the request schema. The schema checks structure only (types, enumerations, lengths,
// characters); amounts stay as sent (string or number) and the rules in validate-*.ts parse them as decimals, so
// precision errors get their own codes.
import { z } from 'zod';

/**
 * Characters the layouts' text types can carry: TString is [!-ÿ] with inner spaces, i.e. printable Latin-1.
 * Line breaks and tabs are folded into single spaces first (the layouts have no line breaks).
 */
const LATIN1_PRINTABLE = /^[\x20-\x7E\xA0-\xFF]*$/;

export const CHARSET_CODE = 'FIELD_CHARACTERS_UNSUPPORTED';

/**
 * Free text as a layout's text element holds it: line breaks and tabs folded into spaces, trimmed, then `min`–`max`
 * characters of printable Latin-1 (a refusal carrying FIELD_CHARACTERS_UNSUPPORTED otherwise). Also the text of the
 * events (cancellation reason, correction letter, invalidation reason, manifestation justification), which an
 * authorizer would refuse — or our own schema check would, after the request was accepted.
 */
export function layoutText(bounds: { min?: number; max?: number } = {}) {
  let schema = z.string().overwrite((s) => s.replace(/[\t\r\n]+/g, ' ').trim());
  if (bounds.min !== undefined) schema = schema.min(bounds.min);
  if (bounds.max !== undefined) schema = schema.max(bounds.max);
  return schema.refine((s) => LATIN1_PRINTABLE.test(s), {
    message: 'Contains characters the XML layout cannot carry (only printable Latin-1 is allowed)',
    params: { code: CHARSET_CODE },
  });
}

/** True for the issue layoutText reports on text the layout cannot carry (its code, FIELD_CHARACTERS_UNSUPPORTED). */
export function isCharsetIssue(issue: z.core.$ZodIssue | undefined): boolean {
  return issue?.code === 'custom' && (issue.params as { code?: string } | undefined)?.code === CHARSET_CODE;
}

export function text(max: number, description: string, example?: string) {
  return layoutText({ min: 1, max }).meta({ description, ...(example === undefined ? {} : { examples: [example] }) });
}

export function digits(length: number, description: string, example: string) {
  return z
    .string()
    .regex(new RegExp(`^\\d{${length}}$`), { message: `Must be exactly ${length} digits` })
    .meta({ description, examples: [example] });
}

/** An amount, quantity or rate: a JSON number or a decimal string ("12.50"). Never read as a binary float. */
export function decimal(description: string, example: string) {
  return z
    .union([z.string(), z.number()])
    .meta({ description: `${description} A decimal string (recommended) or a JSON number.`, examples: [example, Number(example)] });
}
