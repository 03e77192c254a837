// The value parsers every fragment is written with: an empty variable is an unset one, numbers are plain decimal
// integers, URLs are checked for their scheme. Messages say what the operator must write, never the value given.
import { z } from 'zod';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An empty string in the environment means "not set": `FOO= npm start` must not be a different value from no FOO. */
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

export const optionalUrl = (protocols: readonly string[]) => optionalString.pipe(url(protocols).optional());

/** An integer ≥ `min` (decimal digits only), `fallback` when unset. */
export const integer = (fallback: number, min = 1) =>
  optionalString.pipe(
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return fallback;
        if (!/^\d+$/.test(v) || Number(v) < min) {
          ctx.addIssue({ code: 'custom', message: min === 1 ? 'must be a positive integer' : `must be an integer ≥ ${min}` });
          return z.NEVER;
        }
        return Number(v);
      }),
  );

export const port = (fallback: number) =>
  optionalString.pipe(
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return fallback;
        if (!/^\d+$/.test(v) || Number(v) > 65535) {
          ctx.addIssue({ code: 'custom', message: 'must be a TCP port number (0–65535)' });
          return z.NEVER;
        }
        return Number(v);
      }),
  );

/** A date as ISO 8601 or an HTTP-date; kept as a Date so the gateway can format the HTTP headers itself. */
export const optionalDate = optionalString.pipe(
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const date = new Date(v);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'must be a date (ISO 8601, e.g. 2027-01-31T00:00:00Z, or an HTTP-date)' });
        return z.NEVER;
      }
      return date;
    }),
);
