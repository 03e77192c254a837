// The gateway answers POST /invoices with the outcome when it arrives within a window (201 / 502), else 202. The
// job's completion event wakes the caller at once (BullMQ request-reply is a few milliseconds); PostgreSQL has the
// last word, since the job may end before the invoice is final (a retry) or vanish (Redis flushed).
import type { InvoiceRecord } from '@talao/persistence';
import type { InvoicesPort } from '../ports.js';

/** A BullMQ Queue and QueueEvents, seen structurally. */
export interface OutcomeWaitPorts {
  invoices: Pick<InvoicesPort, 'findById'>;
  queue: { getJob(jobId: string): Promise<{ waitUntilFinished(events: never, ttl?: number): Promise<unknown> } | undefined | null> };
  queueEvents: unknown;
}

const POLL_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits up to `windowMs` for the invoice to leave `processing`; returns the invoice as it is then (still
 * `processing` when the window closed first: the outcome arrives by webhook or GET).
 */
export async function waitForInvoiceOutcome(ports: OutcomeWaitPorts, invoiceId: string, windowMs: number): Promise<InvoiceRecord | null> {
  const deadline = Date.now() + windowMs;
  const job = await ports.queue.getJob(invoiceId);
  if (job) {
    // Rejects when the job fails or the window ends; either way the database decides below.
    await job.waitUntilFinished(ports.queueEvents as never, windowMs).catch(() => undefined);
  }
  for (;;) {
    const invoice = await ports.invoices.findById(invoiceId);
    if (!invoice || invoice.status !== 'processing') return invoice;
    const left = deadline - Date.now();
    if (left <= 0) return invoice;
    await sleep(Math.min(POLL_MS, left));
  }
}
