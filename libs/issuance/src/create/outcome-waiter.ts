// The gateway answers POST /invoices with the outcome when it arrives within a window (201 / 502), else 202: this
// waits, for that bounded window, until an invoice leaves `processing`. The signal is the issuer's job ending (the
// issuance queue's outcome channel, @talao/queue-contracts job-outcomes.ts: one subscription per process). A job that moved the invoice returns the fields its final
// statement wrote (DecidedState): the issuer completes the job only after that statement committed, so for a request
// that has just created the invoice, the record it holds plus those fields IS the row in PostgreSQL — no read back.
// Any other end (failed, already final, a resumed call) is only the signal to read PostgreSQL, the truth.
// A slow poll backs the signal up, so a missed event (Redis reconnect, a job finished by the sweeper's re-drive under
// another run) costs latency, never correctness.
import type { InvoiceRecord } from '@talao/persistence';
import type { DecidedState } from '../issue/issue-context.js';
import type { InvoicesPort } from '../ports.js';

export type InvoiceReader = Pick<InvoicesPort, 'findById'>;

/** What an outcome answer needs of an invoice: the record without its large columns and its bookkeeping. */
export type InvoiceOutcome = Omit<InvoiceRecord, 'request' | 'authorizedXml' | 'updatedAt'>;

/**
 * Job ends, seen structurally (a JobOutcomeSubscription, or BullMQ's QueueEvents): the job (id = invoice id) has
 * ended, either way.
 */
export interface JobEndEvents {
  on(event: 'completed' | 'failed', listener: (args: { jobId: string; returnvalue?: unknown }) => void): unknown;
}

/** Only for a missed signal (pub/sub is at-most-once: Redis reconnecting): slow, so an overloaded platform's long waits add no reads. */
const FALLBACK_POLL_MS = 2_000;
/** How long the end of a job nobody waited for is remembered (a waiter registers right after enqueueing). */
const UNCLAIMED_END_MS = 30_000;
const FINAL_STATUSES = new Set(['issued', 'rejected', 'failed', 'cancelled']);
const nullableText = (value: unknown) => value === null || typeof value === 'string';

/** The job's DecidedState, when its return value carries a well-formed one (anything else: read PostgreSQL). */
function decidedStateOf(returnvalue: unknown): DecidedState | undefined {
  const decided = (returnvalue as { decided?: Record<string, unknown> } | null | undefined)?.decided;
  if (!decided || typeof decided !== 'object' || !FINAL_STATUSES.has(decided.status as string) || typeof decided.contingency !== 'boolean')
    return undefined;
  const texts = [decided.accessKey, decided.protocol, decided.statusCode, decided.statusMessage, decided.issuedAt];
  if (!texts.every(nullableText)) return undefined;
  if (typeof decided.issuedAt === 'string' && Number.isNaN(Date.parse(decided.issuedAt))) return undefined;
  return decided as unknown as DecidedState;
}

function settledFrom(created: InvoiceRecord, decided: DecidedState): InvoiceOutcome {
  return {
    id: created.id,
    companyId: created.companyId,
    environment: created.environment,
    documentType: created.documentType,
    series: created.series,
    number: created.number,
    dpsId: created.dpsId,
    totalAmount: created.totalAmount,
    reissueOfId: created.reissueOfId,
    createdAt: created.createdAt,
    status: decided.status,
    accessKey: decided.accessKey,
    protocol: decided.protocol,
    statusCode: decided.statusCode,
    statusMessage: decided.statusMessage,
    contingency: decided.contingency,
    issuedAt: decided.issuedAt === null ? null : new Date(decided.issuedAt),
  };
}

type Signal = (decided: DecidedState | undefined) => void;

export class OutcomeWaiter {
  private readonly waiting = new Map<string, Set<Signal>>();
  /** Job id → when it ended with no waiter registered (oldest first), and what it decided. */
  private readonly unclaimedEnds = new Map<string, { at: number; decided: DecidedState | undefined }>();

  constructor(
    private readonly invoices: InvoiceReader,
    events: JobEndEvents | null,
    private readonly now: () => number = Date.now,
  ) {
    const wake = ({ jobId, returnvalue }: { jobId: string; returnvalue?: unknown }) => {
      const decided = decidedStateOf(returnvalue);
      const listeners = this.waiting.get(jobId);
      if (listeners) listeners.forEach((signal) => signal(decided));
      else this.rememberUnclaimedEnd(jobId, decided);
    };
    events?.on('completed', wake);
    events?.on('failed', ({ jobId }) => wake({ jobId }));
  }

  private rememberUnclaimedEnd(jobId: string, decided: DecidedState | undefined): void {
    const at = this.now();
    this.unclaimedEnds.delete(jobId);
    this.unclaimedEnds.set(jobId, { at, decided });
    for (const [id, end] of this.unclaimedEnds) {
      if (at - end.at <= UNCLAIMED_END_MS) break;
      this.unclaimedEnds.delete(id);
    }
  }

  /**
   * The invoice once final, or as it stands when `windowMs` runs out (still `processing`). `justCreated`: the record
   * the caller has just inserted as `processing`; then the first read is skipped, and none is needed at all when the
   * job's end says what it decided.
   */
  async waitForFinal(invoiceId: string, windowMs: number, justCreated?: InvoiceRecord): Promise<InvoiceOutcome | null> {
    const deadline = Date.now() + windowMs;
    let notify: () => void = () => undefined;
    let woken = false;
    let decided: DecidedState | undefined;
    const listeners = this.waiting.get(invoiceId) ?? new Set<Signal>();
    this.waiting.set(invoiceId, listeners);
    const signal: Signal = (state) => {
      woken = true;
      decided ??= state;
      notify();
    };
    listeners.add(signal);
    try {
      // Registered before the first read: an outcome recorded before this point is seen by the read, one after by the event.
      const ended = this.unclaimedEnds.get(invoiceId);
      decided = ended?.decided;
      let known = justCreated?.status === 'processing' && !ended ? justCreated : undefined;
      for (;;) {
        if (decided && justCreated) return settledFrom(justCreated, decided);
        woken = false;
        const invoice = known ?? (await this.invoices.findById(invoiceId));
        known = undefined;
        const left = deadline - Date.now();
        if (!invoice || invoice.status !== 'processing' || left <= 0) return invoice;
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, FALLBACK_POLL_MS));
          notify = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      listeners.delete(signal);
      if (listeners.size === 0) this.waiting.delete(invoiceId);
    }
  }
}
