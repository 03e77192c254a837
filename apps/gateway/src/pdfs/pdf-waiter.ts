// Enqueues a `render-pdf` job and waits, within a window, for its end on the pdf queue's outcome channel. The outcome
// is a hint (pub/sub is at most once): the caller reads the PDF from PostgreSQL after the wait whatever it heard.
import { enqueueJob, jobIdOf, type JobOutcomeSubscription, type RenderPdfJobResult } from '@talao/queue-contracts';
import type { Queue } from 'bullmq';

export type RenderWait = { kind: 'ended'; result: RenderPdfJobResult } | { kind: 'timeout' };

export class PdfWaiter {
  constructor(
    private readonly queue: Queue,
    private readonly outcomes: JobOutcomeSubscription,
  ) {}

  async renderAndWait(invoiceId: string, version: string, windowMs: number): Promise<RenderWait> {
    const job = { name: 'render-pdf' as const, data: { invoiceId, version } };
    const jobId = jobIdOf(job);
    let onCompleted: (event: { jobId: string; returnvalue?: unknown }) => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    // Listening before enqueueing: a render faster than the enqueue's answer is still heard.
    const ended = new Promise<RenderWait>((resolve) => {
      onCompleted = (event) => {
        if (event.jobId === jobId) resolve({ kind: 'ended', result: event.returnvalue as RenderPdfJobResult });
      };
      timer = setTimeout(() => resolve({ kind: 'timeout' }), windowMs);
      this.outcomes.on('completed', onCompleted);
    });
    try {
      await enqueueJob({ pdf: this.queue }, job);
      // The jobId is the version, so a job that failed every attempt (Chromium down for a while) would make each later
      // enqueue a no-op: it is retried instead.
      const existing = await this.queue.getJob(jobId);
      if (existing && (await existing.isFailed())) await existing.retry('failed');
      // Ended already (a render of this version that completed before, or before we subscribed).
      else if (existing && (await existing.isCompleted())) return { kind: 'ended', result: existing.returnvalue as RenderPdfJobResult };
      return await ended;
    } finally {
      clearTimeout(timer);
      this.outcomes.off('completed', onCompleted);
    }
  }
}
