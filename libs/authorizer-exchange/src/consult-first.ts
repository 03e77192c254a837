// Consult first (invariant 4), for any operation that registers something at an authorizer: when an earlier
// transmission's outcome is unknown (no answer stored, a lost answer, or an answer not yet turned into state), the
// authorizer is asked what it holds before anything is sent; "nothing" allows sending the very bytes stored then
// again, so a resend can never make a second document. What is sent, how an answer reads and how to consult are the
// strategy's (one per document type and operation); the order is this file's.
import type { AuthorizerOutcome, PreparedCall } from '@talao/authorizer-clients';
import type { ExchangeLog, StoredTransmission } from './exchange-log.js';

/** What one answer to a transmission means. */
export type Settled<D> =
  /** The authorizer decided (authorized, refused, …). */
  | { kind: 'decided'; decision: D }
  /** The answer says nothing certain (lost answer, "already held"): ask the authorizer. */
  | { kind: 'consult' }
  /** Nothing reached the authorizer's application: nothing can have been registered. */
  | { kind: 'unavailable'; detail: string };

/** What the authorizer holds for a transmission, found by a consult. */
export type Reconciled<D> = { kind: 'decided'; decision: D } | { kind: 'absent' } | { kind: 'inconclusive'; reason: string };

export interface ExchangeStrategy<D, T = unknown, C extends PreparedCall<T> = PreparedCall<T>> {
  /** The transmission's operation as recorded (a resend is the same operation). */
  readonly operation: string;
  /**
   * The transmission when nothing of it was sent before (the document built and signed now). An error thrown here
   * (a document that fails its schema) leaves the exchange before anything is stored or sent.
   */
  prepare(): C | Promise<C>;
  /** The transmission of `storedRequest` again, byte for byte (after a consult found nothing). */
  prepareResend(storedRequest: string): C;
  settle(outcome: AuthorizerOutcome<T>, call: C): Settled<D>;
  /** Asks the authorizer what became of the transmission of `storedRequest`; its calls go through `log`. */
  reconcile(storedRequest: string, log: ExchangeLog): Promise<Reconciled<D>>;
  /**
   * The authorizer is unavailable: true when the strategy switched to another route (SVC contingency, a new document
   * prepared by the next `prepare`), false to give up for now.
   */
  reroute?(detail: string, call: C): Promise<boolean>;
}

export type ExchangeResult<D> =
  | { kind: 'decided'; decision: D }
  /** Nothing reached the authorizer: try again later; when giving up, nothing exists there. */
  | { kind: 'unavailable'; detail: string }
  /** An outcome is still unknown (a consult that could not tell): try again later, never give up on it. */
  | { kind: 'retry'; reason: string };

export interface ExchangeOptions {
  /** Transmissions per run at most (resends after "no record" included); more waits for the next run. */
  maxSends?: number;
}

export const DEFAULT_MAX_SENDS = 3;

/** Outcomes a consult must look behind: none stored, unknown, or a decision the subject does not show yet. */
const UNSETTLED = new Set([null, 'unknown', 'authorized', 'accepted']);

/** The earlier transmission of this operation whose outcome is not known to have been turned into state. */
export function unsettledTransmission(
  strategy: { operation: string },
  history: readonly StoredTransmission[],
): StoredTransmission | undefined {
  const last = history.filter((t) => t.operation === strategy.operation).at(-1);
  return last && UNSETTLED.has(last.outcome) ? last : undefined;
}

/**
 * Runs one operation for a subject whose earlier transmissions are `history` (oldest first, as stored). Every call
 * goes through `log`: stored before it is sent. Never sends while an earlier outcome is unknown.
 */
export async function exchangeConsultingFirst<D, T, C extends PreparedCall<T>>(
  strategy: ExchangeStrategy<D, T, C>,
  log: ExchangeLog,
  history: readonly StoredTransmission[],
  options: ExchangeOptions = {},
): Promise<ExchangeResult<D>> {
  let resend: string | undefined;
  const earlier = unsettledTransmission(strategy, history);
  if (earlier) {
    const reconciled = await strategy.reconcile(earlier.requestBody, log);
    if (reconciled.kind !== 'absent') return reconciled.kind === 'decided' ? reconciled : { kind: 'retry', reason: reconciled.reason };
    resend = earlier.requestBody;
  }
  const maxSends = options.maxSends ?? DEFAULT_MAX_SENDS;
  for (let send = 0; send < maxSends; send++) {
    const call = resend === undefined ? await strategy.prepare() : strategy.prepareResend(resend);
    const settled = strategy.settle(await log.call(call), call);
    if (settled.kind === 'decided') return settled;
    if (settled.kind === 'unavailable') {
      if (strategy.reroute && (await strategy.reroute(settled.detail, call))) {
        resend = undefined;
        continue;
      }
      return settled;
    }
    const reconciled = await strategy.reconcile(call.body, log);
    if (reconciled.kind !== 'absent') return reconciled.kind === 'decided' ? reconciled : { kind: 'retry', reason: reconciled.reason };
    // No record of it: the same bytes again.
    resend = call.body;
  }
  return { kind: 'retry', reason: `${maxSends} sends in one run without a decision` };
}
