import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Letters, digits and a few separators, at most 128 characters: safe to log and to echo in a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's request id when it is sane (so traces join across systems), otherwise a fresh UUID. */
export function resolveRequestId(incoming: string | readonly string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return typeof value === 'string' && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}
