// A job that files one request with the authorizer and decides a row by its answer — a cancellation or a correction
// letter, an inutilização, a recipient manifestation — ends the same way whatever it files: without a certificate it
// waits if an earlier transmission's outcome is unknown and is refused otherwise; an unavailable authorizer is retried
// until the last try, which refuses it as such; an unknown outcome is retried, never given up; a decision is written
// in one statement. Written once here; each job keeps its own loading, local checks and deciding statement.
import type { PreparedCall } from '@talao/authorizer-clients';
import { XmlBuildError, XsdValidationError } from '@talao/fiscal-xml';
import { type AmendJobResult, RetryLaterError } from '@talao/queue-contracts';
import { exchangeConsultingFirst, type ExchangeStrategy, unsettledTransmission } from './consult-first.js';
import type { ExchangeLog, StoredTransmission } from './exchange-log.js';
import type { EventDecision } from './strategies/event-decision.js';

/** A refusal decided before (or without) the authorizer: no code, no protocol, the service's own message. */
export function refusedLocally(statusMessage: string): EventDecision {
  return { status: 'rejected', protocol: null, statusCode: null, statusMessage };
}

/** A filed request's row: `pending` until the authorizer's answer (or the service) decides it. */
type FiledRow = { readonly status: 'pending' | EventDecision['status'] };

/** True when the job has a request to file: its row exists and nothing decided it yet. */
export function isPending<Row extends FiledRow>(row: Row | null): row is Row & { status: 'pending' } {
  return row?.status === 'pending';
}

/** The job's result for a row that is gone (`what` names it) or was decided by an earlier run. */
export function settledResult(row: FiledRow | null, what: string): AmendJobResult {
  if (!row) return { kind: 'skipped', reason: `no such ${what}` };
  return { kind: 'final', status: row.status === 'registered' ? 'registered' : 'rejected', alreadyFinal: true };
}

/** The job's result once `decision` is written: what was decided when this run's statement moved the row. */
export function filedRequestResult(decision: EventDecision, moved: boolean): AmendJobResult {
  const { status, protocol, statusCode, statusMessage } = decision;
  return moved
    ? { kind: 'final', status, decided: { protocol, statusCode, statusMessage } }
    : { kind: 'final', status, alreadyFinal: true };
}

export interface FiledRequestRun<Certificate, T, C extends PreparedCall<T>> {
  /** The operation the request is recorded under (an unsettled transmission of it makes a missing certificate a wait). */
  readonly operation: string;
  /** The company's usable certificate, or null when it has none. */
  readonly certificate: Certificate | null;
  /** The request's exchange, signed and sent with `certificate`. */
  readonly strategy: (certificate: Certificate) => ExchangeStrategy<EventDecision, T, C>;
  readonly log: ExchangeLog;
  /** The request's stored transmissions, oldest first. */
  readonly history: readonly StoredTransmission[];
  /** Writes the decision in one statement (with the log's pending answer) and returns the job's result. */
  readonly decide: (decision: EventDecision) => Promise<AmendJobResult>;
  /** This is the job's last try: an authorizer still unavailable refuses the request instead of retrying. */
  readonly finalAttempt: boolean;
}

/** Files the request (persist before send, consult first) and decides by what became of it; RetryLaterError to wait. */
export async function exchangeFiledRequest<Certificate, T, C extends PreparedCall<T>>(
  run: FiledRequestRun<Certificate, T, C>,
): Promise<AmendJobResult> {
  const { certificate, log, history, decide } = run;
  if (!certificate) {
    // An earlier run may have sent the request: its outcome must be settled first, which needs a certificate.
    if (unsettledTransmission(run, history)) throw new RetryLaterError('no usable certificate to settle an earlier transmission with');
    return decide(refusedLocally('The company has no usable certificate'));
  }
  try {
    // At most DEFAULT_MAX_SENDS transmissions in this run.
    const result = await exchangeConsultingFirst(run.strategy(certificate), log, history);
    if (result.kind === 'retry') throw new RetryLaterError(result.reason);
    if (result.kind === 'unavailable') {
      // Nothing reached the authorizer: retry with backoff; on the last try the request is refused as such.
      if (!run.finalAttempt) throw new RetryLaterError(`authorizer unavailable: ${result.detail}`);
      return await decide(refusedLocally(`Authorizer unavailable after every retry: ${result.detail}`.slice(0, 500)));
    }
    return await decide(result.decision);
  } catch (error) {
    // A request that cannot be built (text or values its layout refuses) would fail every retry the same way and stay
    // pending for ever: refused as such, unless an earlier transmission still waits to be settled.
    if (!(error instanceof XmlBuildError || error instanceof XsdValidationError) || unsettledTransmission(run, history)) throw error;
    return await decide(refusedLocally(`The request could not be built for the authorizer: ${error.message}`.slice(0, 500)));
  } finally {
    // An answer that decided nothing is stored before the job ends.
    await log.flush();
  }
}
