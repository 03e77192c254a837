import { type RecordedExchange, type TransportFailureReason } from './transport/exchange.js';

/**
 * Every call ends in exactly one of these:
 * - `authorized` / `accepted`: the authorizer took it (authorization with its protocol; other operations processed);
 * - `rejected`: the authorizer's own code and message (nothing was registered, except a denial's protocol);
 * - `unavailable`: nothing reached the authorizer's application (refused, DNS, TLS handshake, HTTP error, service
 *   down): safe to retry or to go to contingency;
 * - `unknown`: the request was sent and the answer was lost (timeout, reset, unreadable answer): reconcile by a
 *   consult, never resend blindly.
 * `exchanges` holds every HTTP exchange of the call, in order (an asynchronous authorization polls).
 */
export type AuthorizerOutcome<T> =
  | { status: 'authorized' | 'accepted'; code: string; message: string; protocol?: string; result: T; exchanges: RecordedExchange[] }
  | { status: 'rejected'; code: string; message: string; protocol?: string; result?: T; exchanges: RecordedExchange[] }
  | { status: 'unavailable'; reason: UnavailableReason; detail: string; code?: string; message?: string; exchanges: RecordedExchange[] }
  | { status: 'unknown'; reason: UnknownReason; detail: string; exchanges: RecordedExchange[] };

export type UnavailableReason = TransportFailureReason | 'http-error' | 'service-paused';
export type UnknownReason = TransportFailureReason | 'unreadable-response' | 'still-processing';

/** A short human description of an outcome that decided nothing (for logs and retry reasons). */
export function describeOutcome(outcome: AuthorizerOutcome<unknown>): string {
  if ('detail' in outcome) return `${outcome.status} (${outcome.reason}): ${outcome.detail}`;
  return `${outcome.status} ${outcome.code} ${outcome.message}`;
}
