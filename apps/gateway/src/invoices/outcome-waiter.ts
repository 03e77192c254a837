// Waits, for a bounded window, until an invoice leaves `processing`. The issuer's job completing (BullMQ QueueEvents,
// one subscription per gateway process) is only the signal to look: the state is read from PostgreSQL, the truth.
// A slow poll backs the signal up, so a missed event (Redis reconnect, a job finished by the sweeper's re-drive under
// another run) costs latency, never correctness.
import type { InvoiceRecord } from '@talao/persistence';
import type { QueueEvents } from 'bullmq';

export interface InvoiceReader {
  findById(id: string): Promise<InvoiceRecord | null>;
}

const FALLBACK_POLL_MS = 500;

export class OutcomeWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(private readonly invoices: InvoiceReader, events: QueueEvents | null) {
    const wake = ({ jobId }: { jobId: string }) => this.waiting.get(jobId)?.forEach((notify) => notify());
    events?.on('completed', wake);
    events?.on('failed', wake);
  }

  /** The invoice once final, or as it stands when `windowMs` runs out (still `processing`). */
  async waitForFinal(invoiceId: string, windowMs: number): Promise<InvoiceRecord | null> {
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
      for (;;) {
        woken = false;
        const invoice = await this.invoices.findById(invoiceId);
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
