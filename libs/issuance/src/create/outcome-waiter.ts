// The gateway answers POST /invoices with the outcome when it arrives within a window (201 / 502), else 202: this
// waits, for that bounded window, until an invoice leaves `processing`. The issuer's job completing (BullMQ QueueEvents,
// one subscription per process) is only the signal to look: the state is read from PostgreSQL, the truth.
// A slow poll backs the signal up, so a missed event (Redis reconnect, a job finished by the sweeper's re-drive under
// another run) costs latency, never correctness.
// A request that has just created the invoice knows it is `processing`: it skips the first read unless the job's
// end was already signalled (jobs ending with nobody waiting are remembered for a while), one query less per call.
import type { InvoiceRecord } from '@talao/persistence';
import type { InvoicesPort } from '../ports.js';

export type InvoiceReader = Pick<InvoicesPort, 'findById'>;

/** A BullMQ QueueEvents, seen structurally: the job (id = invoice id) has ended, either way. */
export interface JobEndEvents {
  on(event: 'completed' | 'failed', listener: (args: { jobId: string }) => void): unknown;
}

const FALLBACK_POLL_MS = 500;
/** How long the end of a job nobody waited for is remembered (a waiter registers right after enqueueing). */
const UNCLAIMED_END_MS = 30_000;

export class OutcomeWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Job id → when it ended with no waiter registered, oldest first. */
  private readonly unclaimedEnds = new Map<string, number>();

  constructor(private readonly invoices: InvoiceReader, events: JobEndEvents | null, private readonly now: () => number = Date.now) {
    const wake = ({ jobId }: { jobId: string }) => {
      const listeners = this.waiting.get(jobId);
      if (listeners) listeners.forEach((notify) => notify());
      else this.rememberUnclaimedEnd(jobId);
    };
    events?.on('completed', wake);
    events?.on('failed', wake);
  }

  private rememberUnclaimedEnd(jobId: string): void {
    const at = this.now();
    this.unclaimedEnds.delete(jobId);
    this.unclaimedEnds.set(jobId, at);
    for (const [id, endedAt] of this.unclaimedEnds) {
      if (at - endedAt <= UNCLAIMED_END_MS) break;
      this.unclaimedEnds.delete(id);
    }
  }

  /**
   * The invoice once final, or as it stands when `windowMs` runs out (still `processing`). `justCreated`: the record
   * the caller has just inserted as `processing`; the first read is skipped unless its job already ended.
   */
  async waitForFinal(invoiceId: string, windowMs: number, justCreated?: InvoiceRecord): Promise<InvoiceRecord | null> {
    const deadline = Date.now() + windowMs;
    let notify: () => void = () => undefined;
    let woken = false;
    const listeners = this.waiting.get(invoiceId) ?? new Set<() => void>();
    this.waiting.set(invoiceId, listeners);
    const signal = () => {
      woken = true;
      notify();
    };
    listeners.add(signal);
    try {
      // Registered before the first read: an outcome recorded before this point is seen by the read, one after by the event.
      let known = justCreated?.status === 'processing' && !this.unclaimedEnds.has(invoiceId) ? justCreated : undefined;
      for (;;) {
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
