// What the delivery log says about an attempt that got no response: the integrator reads it to fix their side
// (a firewall refusing, a handler that hangs, a URL now pointing inside a private network).
import { TargetRefusedError } from './guarded-connector.js';

export type DeliveryResult =
  /** A 2xx response within the timeout. */
  | 'delivered'
  /** A response with another status (3xx included: redirects are not followed). */
  | 'http_error'
  /** No response within the per-attempt timeout (connect, TLS, or waiting for the status). */
  | 'timeout'
  /** The endpoint's host refused the TCP connection (nothing listening). */
  | 'connection_refused'
  /** The SSRF guard refused the target: not https, or an address that is not global unicast. */
  | 'target_refused'
  /** Anything else before a response: DNS failure, TLS failure (certificate), connection reset. */
  | 'connection_error';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  cause?: unknown;
}

const asErrorLike = (value: unknown): ErrorLike => (typeof value === 'object' && value !== null ? (value as ErrorLike) : {});

/** The error and those it aggregates (Node's happy-eyeballs connect fails with one AggregateError per address family). */
function errorsOf(failure: unknown): ErrorLike[] {
  const error = asErrorLike(failure);
  const inner = Array.isArray(error.errors) ? error.errors.map(asErrorLike) : [];
  return [error, ...inner, ...(error.cause !== undefined ? [asErrorLike(error.cause)] : [])];
}

function describe(failure: unknown): string {
  const error = asErrorLike(failure);
  const code = typeof error.code === 'string' ? `${error.code}: ` : '';
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : String(failure);
  return `${code}${message}`.trim().slice(0, 500);
}

export function classifyFailure(failure: unknown, timeoutMs: number): { result: DeliveryResult; error: string } {
  const errors = errorsOf(failure);
  if (failure instanceof TargetRefusedError || errors.some((e) => e.code === 'WEBHOOK_TARGET_REFUSED')) {
    const refused = errors.find((e) => e.code === 'WEBHOOK_TARGET_REFUSED');
    return { result: 'target_refused', error: `refused by the SSRF guard: ${String(refused?.message ?? describe(failure))}` };
  }
  if (errors.some((e) => e.name === 'TimeoutError' || (typeof e.code === 'string' && TIMEOUT_CODES.has(e.code)))) {
    return { result: 'timeout', error: `no response within ${timeoutMs} ms` };
  }
  const codes = errors.map((e) => e.code).filter((code) => typeof code === 'string');
  if (codes.length > 0 && codes.every((code) => code === 'ECONNREFUSED')) {
    return { result: 'connection_refused', error: describe(failure) };
  }
  return { result: 'connection_error', error: describe(failure) };
}
