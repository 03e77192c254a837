// The gateway answers POST /invoices with the outcome when it arrives within a window (201 / 502), else 202: this
// waits, for that bounded window, until an invoice leaves `processing`. The signal is the issuer's job ending (the
// issuance queue's outcome channel, @talao/queue-contracts job-outcomes.ts: one subscription per process). A job that moved the invoice returns the fields its final
// statement wrote (DecidedState): the issuer completes the job only after that statement committed, so for a request
// that has just created the invoice, the record it holds plus those fields IS the row in PostgreSQL — no read back.
// Any other end (failed, already final, a resumed call) is only the signal to read PostgreSQL, the truth.
// The waiting itself (signal, remembered ends, fallback poll) is @talao/queue-contracts' JobEndWaiter.
import type { InvoiceRecord } from '@talao/persistence';
import { type JobEndEvents, JobEndWaiter } from '@talao/queue-contracts';
import type { DecidedState } from '../issue/issue-context.js';
import type { InvoicesPort } from '../ports.js';

export type { JobEndEvents };

export type InvoiceReader = Pick<InvoicesPort, 'findById'>;

/** What an outcome answer needs of an invoice: the record without its large columns and its bookkeeping. */
export type InvoiceOutcome = Omit<InvoiceRecord, 'request' | 'authorizedXml' | 'updatedAt'>;

/** Only for a missed signal (pub/sub is at-most-once: Redis reconnecting): slow, so an overloaded platform's long waits add no reads. */
const FALLBACK_POLL_MS = 2_000;
const FINAL_STATUSES = new Set(['issued', 'rejected', 'failed', 'cancelled']);
const nullableText = (value: unknown) => value === null || typeof value === 'string';

/** The job's DecidedState, when its return value carries a well-formed one (anything else: read PostgreSQL). */
function decidedStateOf(returnvalue: unknown): DecidedState | undefined {
  const decided = (returnvalue as { decided?: Record<string, unknown> } | null | undefined)?.decided;
  if (!decided || typeof decided !== 'object' || !FINAL_STATUSES.has(decided.status as string) || typeof decided.contingency !== 'boolean')
    return undefined;
  const texts = [decided.accessKey, decided.protocol, decided.statusCode, decided.statusMessage, decided.issuedAt, decided.invalidatedById];
  if (!texts.every(nullableText)) return undefined;
  if (typeof decided.issuedAt === 'string' && Number.isNaN(Date.parse(decided.issuedAt))) return undefined;
  return decided as unknown as DecidedState;
}

/** The record as created, with what the final statement wrote over it. */
function settledFrom(created: InvoiceRecord, decided: DecidedState): InvoiceOutcome {
  const { request: _request, authorizedXml: _authorizedXml, updatedAt: _updatedAt, ...outcome } = created;
  return {
    ...outcome,
    status: decided.status,
    accessKey: decided.accessKey,
    protocol: decided.protocol,
    statusCode: decided.statusCode,
    statusMessage: decided.statusMessage,
    contingency: decided.contingency,
    issuedAt: decided.issuedAt === null ? null : new Date(decided.issuedAt),
    invalidatedById: decided.invalidatedById,
  };
}

export class OutcomeWaiter {
  private readonly jobEnds: JobEndWaiter;

  constructor(
    private readonly invoices: InvoiceReader,
    events: JobEndEvents | null,
    now?: () => number,
  ) {
    this.jobEnds = new JobEndWaiter(events, { fallbackPollMs: FALLBACK_POLL_MS, now });
  }

  /**
   * The invoice once final, or as it stands when `windowMs` runs out (still `processing`). `justCreated`: the record
   * the caller has just inserted as `processing`; then the first read is skipped, and none is needed at all when the
   * job's end says what it decided.
   */
  waitForFinal(invoiceId: string, windowMs: number, justCreated?: InvoiceRecord): Promise<InvoiceOutcome | null> {
    return this.jobEnds.waitUntilSettled<InvoiceOutcome>(invoiceId, windowMs, {
      read: () => this.invoices.findById(invoiceId),
      settled: (invoice) => invoice.status !== 'processing',
      fromEnd: (end) => {
        const decided = end.outcome === 'completed' ? decidedStateOf(end.returnvalue) : undefined;
        return decided && justCreated ? settledFrom(justCreated, decided) : undefined;
      },
      known: justCreated?.status === 'processing' ? justCreated : undefined,
    });
  }
}
