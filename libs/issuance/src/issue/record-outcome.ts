// One transaction for the new state, the usage ledger and the outbox event (invariant 2): a production credit only
// on authorization, and the event only when this worker is the one that moved the invoice out of `processing`.
// Without a credit to write, the transaction is a single statement (InvoicesPort.finishWithEvent).
import type { FinalState, InvoiceRecord, NewOutboxEvent } from '@talao/persistence';
import { billingPeriod, overageUnitPrice } from '../create/production-quota.js';
import type { IssuingCompany } from '../ports.js';
import type { PendingAnswer } from './answer-buffer.js';
import type { IssueDeps } from './issue-context.js';

const EVENT_TYPES: Record<FinalState['status'], string> = {
  issued: 'invoice.authorized',
  rejected: 'invoice.rejected',
  failed: 'invoice.failed',
  cancelled: 'invoice.cancelled',
};

function eventOf(invoice: InvoiceRecord, state: FinalState, now: Date): NewOutboxEvent {
  return {
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

/** `answered`: the authorizer's answer that decided the invoice, not stored yet (AnswerBuffer). */
export async function recordOutcome(deps: IssueDeps, invoice: InvoiceRecord, company: IssuingCompany, state: FinalState, answered?: PendingAnswer): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  const event = eventOf(invoice, state, now);
  // Nothing to charge (homologation, or not authorized): state and event in one statement, one round trip.
  if (state.status !== 'issued' || invoice.environment !== 'production') {
    return answered ? deps.submissions.answerAndFinish(answered, invoice.id, state, event) : deps.invoices.finishWithEvent(invoice.id, state, event);
  }
  if (answered) await deps.submissions.answer(answered.submissionId, answered.answer);
  return deps.invoices.transaction(async (tx) => {
    const moved = await deps.invoices.finish(tx, invoice.id, state);
    if (!moved) return false;
    const period = billingPeriod(now);
    const creditsBefore = await deps.usage.creditsInPeriod(company.id, 'production', period, tx);
    const unitPrice = overageUnitPrice(company, creditsBefore);
    await deps.usage.charge(tx, {
      companyId: company.id, environment: 'production', invoiceId: invoice.id, documentType: invoice.documentType, period, ...(unitPrice ? { unitPrice } : {}),
    });
    await deps.outbox.append(tx, event);
    return true;
  });
}
