// What each job returns when it completes: the worker's handler is typed against it, and a producer waiting for the
// job reads it from the outcome channel (job-outcomes.ts). Types only: the waiter validates what it relies on, since
// a message may come from another release of the worker.
import type { JobName } from './job-payloads.js';

/**
 * The fields the deciding statement wrote, returned with a `final` result so a gateway waiting for the outcome can
 * answer without reading the invoice back. Only when this run moved the invoice.
 */
export interface DecidedState {
  status: 'issued' | 'rejected' | 'failed' | 'cancelled';
  accessKey: string | null;
  protocol: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  contingency: boolean;
  /** ISO 8601. */
  issuedAt: string | null;
  /** The invalidation that took the number before the document was sent (`failed`). */
  invalidatedById: string | null;
}

/**
 * An `issue` job that completed: the invoice reached (or already had) a final state — `decided` when this run moved
 * it — or there was nothing to do (`skipped`: no such invoice). A job that must run again does not complete: it
 * throws RetryLaterError.
 */
export type IssueJobResult =
  { kind: 'final'; status: DecidedState['status']; alreadyFinal?: boolean; decided?: DecidedState } | { kind: 'skipped'; reason: string };

/** A `deliver-webhook` job: the attempt's result, or why no attempt was made (already made, deferred, gone). */
export type DeliverWebhookJobResult =
  { kind: 'attempted'; result: string; status: 'delivered' | 'pending' | 'given_up' } | { kind: 'skipped'; reason: string };

/**
 * A `render-pdf` job that completed: the PDF of `version` is stored (`rendered` now, or `stored` already), or the
 * invoice has no PDF (`unprintable`: not authorized, gone, or its XML refused by the layout, `detail` says which).
 */
export type RenderPdfJobResult = { kind: 'rendered' | 'stored'; version: string; sha256: string } | { kind: 'unprintable'; detail: string };

/**
 * An `amend` job that completed: the authorizer decided the amendment (`registered` or `rejected`, with its code and
 * message and, when registered, the event's protocol), or there was nothing to do.
 */
export type AmendJobResult =
  | {
      kind: 'final';
      status: 'registered' | 'rejected';
      alreadyFinal?: boolean;
      decided?: { protocol: string | null; statusCode: string | null; statusMessage: string | null };
    }
  | { kind: 'skipped'; reason: string };

interface JobResults {
  issue: IssueJobResult;
  amend: AmendJobResult;
  /** The same shape: the range registered or rejected. */
  invalidate: AmendJobResult;
  'deliver-webhook': DeliverWebhookJobResult;
  'render-pdf': RenderPdfJobResult;
  'sync-received': SyncReceivedJobResult;
  /** The same shape as an amendment's: the manifestation registered or rejected. */
  manifest: AmendJobResult;
}

/**
 * One channel of a `sync-received` job (NF-e DistDFe or NFS-e ADN): pages committed and where the cursor stands, or
 * why nothing was asked (`blocked`: inside the authority's back-off; `busy`: another sync of the tax id holds the
 * lock; `skipped`: no company or certificate). An authorizer that did not answer throws RetryLaterError instead.
 */
export type ReceivedChannelResult =
  | { kind: 'synced'; documents: number; events: number; pages: number; lastNsu: string; maxNsu: string; code: string }
  | { kind: 'blocked'; until: string; code: string; reason: string }
  | { kind: 'busy' }
  | { kind: 'rejected'; code: string; reason: string }
  | { kind: 'skipped'; reason: string };

/** A `sync-received` job that completed: each channel's result. */
export interface SyncReceivedJobResult {
  nfe: ReceivedChannelResult;
  nfse: ReceivedChannelResult;
}

export type JobResult<N extends JobName> = JobResults[N];

/** What a job's use case knows of its try: the last one decides differently (an invoice `failed`, a request refused). */
export interface JobTry {
  readonly final: boolean;
}

/**
 * Thrown by a handler to have its job tried again after the queue's backoff (an authorizer unavailable, an outcome
 * not reconciled yet). Expected, so workers log it below error level.
 */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}
