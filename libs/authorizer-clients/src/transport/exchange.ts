/** What went over the wire, kept for the submission history: exact strings and timings. */
export interface RecordedExchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  /** Absent when no response arrived. */
  response?: { status: number; headers: Record<string, string>; body: string };
  timing: ExchangeTiming;
}

export interface ExchangeTiming {
  startedAt: string;
  /** Milliseconds from start; absent when the step was not reached. */
  connectedMs?: number;
  requestWrittenMs?: number;
  firstByteMs?: number;
  totalMs: number;
}

/**
 * Why a call did not produce a usable answer.
 * - before the request was fully written (refused, DNS, TLS handshake, connect timeout): the authorizer cannot have
 *   processed it → `unavailable`, safe to retry or go to contingency;
 * - after it was written (read timeout, reset, truncated answer, gateway timeout): it may have been processed →
 *   `unknown`, reconcile by a consult, never resend blindly.
 */
export type TransportFailureReason =
  | 'dns'
  | 'connection-refused'
  | 'connect-timeout'
  | 'tls'
  | 'network'
  | 'server-error'
  | 'read-timeout'
  | 'connection-reset'
  | 'gateway-timeout'
  | 'malformed-response';

export type TransportOutcome =
  | { kind: 'response'; status: number; body: string; exchange: RecordedExchange }
  | { kind: 'failure'; sent: boolean; reason: TransportFailureReason; detail: string; exchange: RecordedExchange };
