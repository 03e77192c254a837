// The sweeper: PostgreSQL is the truth (invariant 1), so an invoice left `processing` by a crashed worker or a
// flushed Redis is found in the database and its `issue` job enqueued again. The job then takes the same
// consult-first path as any retry. jobId = invoice id keeps this a no-op while the job still waits or runs.
import { enqueueReplacingEnded } from '@talao/queue-contracts';
import type { InvoicesPort, IssuanceLogger, IssuanceQueuePort } from '../ports.js';

export interface SweepDeps {
  invoices: Pick<InvoicesPort, 'findStuckProcessing' | 'touch'>;
  queue: IssuanceQueuePort;
  logger: IssuanceLogger;
  now?: () => Date;
}

export interface SweepOptions {
  /** An invoice untouched for longer than this is considered stuck. */
  staleAfterMs: number;
  /** Invoices per sweep (the rest wait for the next one). */
  batchSize: number;
}

export interface SweepReport {
  examined: number;
  /** Jobs added because none existed (vanished) or the old one had ended (failed/completed) with the invoice open. */
  redriven: string[];
  /** A job exists and is still waiting, delayed or active. */
  alreadyQueued: number;
}

export async function sweepStuckInvoices(deps: SweepDeps, options: SweepOptions): Promise<SweepReport> {
  const now = deps.now?.() ?? new Date();
  const stuck = await deps.invoices.findStuckProcessing(new Date(now.getTime() - options.staleAfterMs), options.batchSize);
  const report: SweepReport = { examined: stuck.length, redriven: [], alreadyQueued: 0 };
  for (const invoice of stuck) {
    // An ended job (retries exhausted while an outcome stayed unknown, or a crash past maxStalledCount) of a still
    // open invoice is replaced; a live one is left to run.
    const requeued = await enqueueReplacingEnded(deps.queue, { name: 'issue', data: { invoiceId: invoice.id } });
    if (requeued === 'live') {
      report.alreadyQueued += 1;
      continue;
    }
    // Restart the invoice's stale clock so the next sweep gives the new job time to run.
    await deps.invoices.touch(invoice.id);
    report.redriven.push(invoice.id);
    deps.logger.warn({ invoiceId: invoice.id, previousJob: requeued === 'replaced' ? 'ended' : 'missing' }, 'stuck invoice re-driven');
  }
  if (report.redriven.length > 0) {
    deps.logger.info({ examined: report.examined, redriven: report.redriven.length, alreadyQueued: report.alreadyQueued }, 'sweep done');
  }
  return report;
}
