// Enqueues a `render-pdf` job and waits, within a window, for its end on the pdf queue's outcome channel
// (@talao/queue-contracts' JobEndWaiter). The outcome is a hint: the caller reads the PDF from PostgreSQL after the
// wait whatever it heard.
import { enqueueJob, type JobEndEvents, JobEndWaiter, jobIdOf, type RenderPdfJobResult } from '@talao/queue-contracts';
import type { Queue } from 'bullmq';

/** `result` is absent when the end carried no return value (seen under load: a completed job read back with null). */
export type RenderWait = { kind: 'ended'; result: RenderPdfJobResult | undefined } | { kind: 'timeout' };

const NOT_YET: RenderWait = { kind: 'timeout' };
const ended = (returnvalue: unknown): RenderWait => ({
  kind: 'ended',
  result: (returnvalue ?? undefined) as RenderPdfJobResult | undefined,
});
/** Backs up a missed end (pub/sub is at most once) by asking BullMQ for the job's state. */
const FALLBACK_POLL_MS = 1_000;

export class PdfWaiter {
  private readonly jobEnds: JobEndWaiter;

  constructor(
    private readonly queue: Queue,
    outcomes: JobEndEvents,
  ) {
    this.jobEnds = new JobEndWaiter(outcomes, { fallbackPollMs: FALLBACK_POLL_MS });
  }

  async renderAndWait(invoiceId: string, version: string, windowMs: number): Promise<RenderWait> {
    const job = { name: 'render-pdf' as const, data: { invoiceId, version } };
    const jobId = jobIdOf(job);
    await enqueueJob({ pdf: this.queue }, job);
    // One round trip while the job waits or runs (its state); the job itself is read only once it has ended.
    const renderState = async (): Promise<RenderWait> => {
      const state = await this.queue.getJobState(jobId);
      if (state !== 'failed' && state !== 'completed') return NOT_YET;
      const existing = await this.queue.getJob(jobId);
      // The jobId is the version, so a job that failed every attempt (Chromium down for a while) would make each later
      // enqueue a no-op: it is retried instead.
      if (state === 'failed') {
        await existing?.retry('failed');
        return NOT_YET;
      }
      // Ended already: a render of this version that completed before (an end heard while nobody waited is remembered).
      return existing ? ended(existing.returnvalue) : NOT_YET;
    };
    const waited = await this.jobEnds.waitUntilSettled<RenderWait>(jobId, windowMs, {
      read: renderState,
      settled: (wait) => wait.kind === 'ended',
      fromEnd: (end) => (end.outcome === 'completed' ? ended(end.returnvalue) : undefined),
    });
    return waited ?? NOT_YET;
  }
}
