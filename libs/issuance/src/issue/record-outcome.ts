// The invoice's final state, its outbox event (invariant 2) and, on a production authorization, its credit: one
// statement (InvoicesPort.finishWithEvent), which appends the event and charges the credit only when it is the one
// that moved the invoice out of `processing`.
import { currentTraceParent, documentsIssued, documentsRejected } from '@talao/observability';
import type { FinalState, FinishOptions, InvoiceRecord, NewOutboxEvent } from '@talao/persistence';
import { billingPeriod, overageUnitPrice } from '../create/production-quota.js';
import type { IssuingCompany } from '../ports.js';
import type { IssueDeps } from './issue-context.js';

const EVENT_TYPES: Record<FinalState['status'], string> = {
  issued: 'invoice.authorized',
  rejected: 'invoice.rejected',
  failed: 'invoice.failed',
  cancelled: 'invoice.cancelled',
};

function eventOf(invoice: InvoiceRecord, state: FinalState, now: Date): NewOutboxEvent {
  const traceParent = currentTraceParent();
  return {
    // Tracing on: the webhook relay (another process, later) continues this job's trace from here.
    ...(traceParent && { traceParent }),
    companyId: invoice.companyId,
    environment: invoice.environment,
    type: EVENT_TYPES[state.status],
    aggregateId: invoice.id,
    payload: {
      invoice_id: invoice.id,
      document_type: invoice.documentType,
      access_key: state.accessKey ?? invoice.accessKey ?? invoice.dpsId,
      number: invoice.number,
      series: invoice.series,
      status: state.status,
      protocol: state.protocol ?? null,
      status_code: state.statusCode ?? null,
      status_message: state.statusMessage ?? null,
      environment: invoice.environment,
      occurred_at: now.toISOString(),
    },
  };
}

/** One production credit per authorized document; priced at the overage price once the month's quota is used up. */
async function creditOf(deps: IssueDeps, invoice: InvoiceRecord, company: IssuingCompany, now: Date): Promise<FinishOptions['charge']> {
  const period = billingPeriod(now);
  // Only a plan with both a quota and an overage price prices a credit: only then does the month's count matter.
  const priced = company.productionQuota !== null && company.overagePrice !== null;
  const unitPrice = priced ? overageUnitPrice(company, await deps.usage.creditsInPeriod(company.id, 'production', period)) : undefined;
  return { documentType: invoice.documentType, period, ...(unitPrice ? { unitPrice } : {}) };
}

/** `answered`: the authorizer's answer that decided the invoice, not stored yet (ExchangeLog.take). */
export async function recordOutcome(
  deps: IssueDeps,
  invoice: InvoiceRecord,
  company: IssuingCompany,
  state: FinalState,
  answered?: FinishOptions['answered'],
): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  const charge =
    state.status === 'issued' && invoice.environment === 'production' ? await creditOf(deps, invoice, company, now) : undefined;
  const moved = await deps.invoices.finishWithEvent(invoice.id, state, eventOf(invoice, state, now), {
    ...(answered ? { answered } : {}),
    ...(charge ? { charge } : {}),
  });
  // Counted once per document: only the statement that moved it out of `processing` counts (a redelivered job does not).
  if (moved) countDocument(invoice, state);
  return moved;
}

function countDocument(invoice: InvoiceRecord, state: FinalState): void {
  const labels = { document_type: invoice.documentType, environment: invoice.environment };
  if (state.status === 'issued') documentsIssued.inc(labels);
  else if (state.status === 'rejected') documentsRejected.inc({ ...labels, code: state.statusCode ?? '' });
}
