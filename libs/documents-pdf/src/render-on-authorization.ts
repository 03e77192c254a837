// Proactive rendering: the pdf-renderer listens to the issuance queue's job outcomes (one pub/sub message per ended
// `issue` job, published by the issuer) and enqueues the PDF of every invoice an issue job has just authorized, so a
// client's first GET usually finds it stored. At most once, like the channel: a missed message only means the first
// GET renders, as it would without this. Nothing in the issuer changes.
import type { EventEmitter } from 'node:events';
import type { Logger } from '@talao/observability';
import type { InvoicesRepository } from '@talao/persistence';
import { type EnqueueTarget, enqueueJob, type IssueJobResult } from '@talao/queue-contracts';
import { pdfVersionOf, unprintableReason } from './pdf-version.js';

export interface RenderOnAuthorizationDependencies {
  /** The issuance queue's JobOutcomeSubscription ('completed' events). */
  readonly issueOutcomes: Pick<EventEmitter, 'on'>;
  readonly invoices: Pick<InvoicesRepository, 'findById'>;
  /** The pdf queue. */
  readonly queue: EnqueueTarget;
  readonly logger: Logger;
}

export function renderOnAuthorization(deps: RenderOnAuthorizationDependencies): void {
  deps.issueOutcomes.on('completed', (event: { jobId: string; returnvalue?: unknown }) => {
    const result = event.returnvalue as IssueJobResult | undefined;
    // `decided`: this run moved the invoice (a re-run of a final invoice enqueued it the first time).
    if (result?.kind !== 'final' || result.status !== 'issued' || !result.decided) return;
    void (async () => {
      const invoice = await deps.invoices.findById(event.jobId);
      if (!invoice || unprintableReason({ status: invoice.status, hasAuthorizedXml: invoice.authorizedXml !== null })) return;
      await enqueueJob({ pdf: deps.queue }, { name: 'render-pdf', data: { invoiceId: invoice.id, version: pdfVersionOf(invoice) } });
    })().catch((error: Error) =>
      deps.logger.warn({ error: error.message, invoiceId: event.jobId }, 'render on authorization not enqueued'),
    );
  });
}
