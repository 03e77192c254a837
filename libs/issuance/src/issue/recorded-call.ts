// Persist before send (invariant 3): the exact request is stored as a submission before the client transmits it,
// and the exact response (or its absence) after.
import type { AuthorizerOutcome } from '@talao/authorizer-clients';
import type { SubmissionsPort } from '../ports.js';

export interface PreparedCall {
  operation: string;
  endpoint: string;
  /** Exactly what the client will write on the wire (built with the client's own envelope functions). */
  requestBody: string;
}

export async function recordedCall<T>(
  submissions: SubmissionsPort,
  owner: { invoiceId: string; companyId: string },
  prepared: PreparedCall,
  send: () => Promise<AuthorizerOutcome<T>>,
  classify: (outcome: AuthorizerOutcome<T>) => string = (outcome) => outcome.status,
): Promise<AuthorizerOutcome<T>> {
  const submission = await submissions.begin({ ...owner, ...prepared });
  const outcome = await send();
  const last = outcome.exchanges.at(-1);
  const sent = outcome.exchanges[0]?.request.body;
  if (sent !== undefined && sent !== prepared.requestBody) {
    // Never expected: the stored bytes are built by the same functions the client uses. Fail loudly, not silently.
    throw new Error(`${prepared.operation}: the bytes sent differ from the bytes stored before sending`);
  }
  await submissions.answer(submission.id, {
    responseBody: last?.response?.body ?? null,
    httpStatus: last?.response?.status ?? null,
    outcome: classify(outcome),
    statusCode: 'code' in outcome ? (outcome.code ?? null) : null,
    statusMessage: 'message' in outcome ? (outcome.message ?? null) : 'detail' in outcome ? outcome.detail : null,
  });
  return outcome;
}

/** A short human description of an outcome that decided nothing (for logs and retry reasons). */
export function describeOutcome(outcome: AuthorizerOutcome<unknown>): string {
  if ('detail' in outcome) return `${outcome.status} (${outcome.reason}): ${outcome.detail}`;
  return `${outcome.status} ${outcome.code} ${outcome.message}`;
}
