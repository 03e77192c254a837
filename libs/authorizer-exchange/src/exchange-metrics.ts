// What /metrics and the trace say of each call to an authorizer: its time by operation and authorizer host, and its
// outcome by status (authorized, accepted, rejected, unavailable, unknown) and code — the authority's cStat, or for a
// call that decided nothing the reason (timeout, refused, http-error…). All bounded sets.
import type { AuthorizerOutcome } from '@talao/authorizer-clients';
import { authorizerCallDuration, authorizerCalls, secondsSince } from '@talao/observability';

/** The authorizer's host (one per state's SEFAZ, SVC or the national environment): a bounded label. */
export function authorizerOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unknown';
  }
}

export function outcomeCode(outcome: AuthorizerOutcome<unknown>): string {
  if (outcome.status === 'unavailable' || outcome.status === 'unknown') return outcome.reason;
  return outcome.code;
}

export function describeCall(outcome: AuthorizerOutcome<unknown>): Record<string, string> {
  return { 'talao.authorizer.outcome': outcome.status, 'talao.authorizer.code': outcomeCode(outcome) };
}

export function recordAuthorizerCall(operation: string, authorizer: string, outcome: AuthorizerOutcome<unknown>, startNs: bigint): void {
  authorizerCallDuration.observe({ operation, authorizer }, secondsSince(startNs));
  authorizerCalls.inc({ operation, authorizer, outcome: outcome.status, code: outcomeCode(outcome) });
}
