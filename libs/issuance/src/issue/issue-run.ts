// One run of the issue job for one invoice, with everything loaded once, and how a run ends.
import type { DocumentDecision, ExchangeLog, ExchangeResult, LoadedCertificate } from '@talao/authorizer-exchange';
import type { IssuerProfile, ValidatedInvoiceRequest } from '@talao/fiscal-model';
import type { FinalState, InvoiceRecord, SubmissionRecord } from '@talao/persistence';
import type { IssuingCompany } from '../ports.js';
import type { DecidedState, IssueDeps, IssueOptions, IssueResult } from './issue-context.js';
import { recordOutcome } from './record-outcome.js';

export interface IssueRun {
  deps: IssueDeps;
  options: IssueOptions;
  invoice: InvoiceRecord;
  company: IssuingCompany;
  profile: IssuerProfile;
  request: ValidatedInvoiceRequest;
  loaded: LoadedCertificate;
  /** The invoice's exchanges recorded before this run started (oldest first). */
  submissions: SubmissionRecord[];
  /** Where this run's exchanges are recorded before they are sent; the deciding answer is stored with the final state. */
  log: ExchangeLog;
}

/** Sends per run at most this many times (resends after "no record" included); more waits for the next try. */
export const MAX_SENDS_PER_RUN = 3;

export async function finishRun(run: IssueRun, state: FinalState): Promise<IssueResult> {
  const moved = await recordOutcome(run.deps, run.invoice, run.company, state, run.log.take());
  run.deps.logger.info({ invoiceId: run.invoice.id, status: state.status, code: state.statusCode, moved }, 'invoice decided');
  if (!moved) return { kind: 'final', status: state.status, alreadyFinal: true };
  // A field the final state leaves undefined kept the value the run started from (FinalState's contract).
  const { invoice } = run;
  const issuedAt = state.issuedAt !== undefined ? state.issuedAt : invoice.issuedAt;
  const decided: DecidedState = {
    status: state.status,
    accessKey: state.accessKey !== undefined ? state.accessKey : invoice.accessKey,
    protocol: state.protocol !== undefined ? state.protocol : invoice.protocol,
    statusCode: state.statusCode !== undefined ? state.statusCode : invoice.statusCode,
    statusMessage: state.statusMessage !== undefined ? state.statusMessage : invoice.statusMessage,
    contingency: invoice.contingency,
    issuedAt: issuedAt ? issuedAt.toISOString() : null,
    invalidatedById: state.invalidatedById !== undefined ? state.invalidatedById : invoice.invalidatedById,
  };
  return { kind: 'final', status: state.status, decided };
}

/**
 * The authorizer cannot be reached. Before the job's last try: retry with backoff. On the last try the invoice is
 * `failed` (nothing was registered: every attempt was refused before reaching the authorizer's application), and the
 * integrator may reissue it.
 */
export async function unavailable(run: IssueRun, detail: string): Promise<IssueResult> {
  if (!run.options.finalAttempt) return { kind: 'retry', reason: `authorizer unavailable: ${detail}` };
  return finishRun(run, {
    status: 'failed',
    statusCode: null,
    statusMessage: `Authorizer unavailable after every retry: ${detail}`.slice(0, 500),
  });
}

/** The exchange's end as the invoice's: the authorizer's decision, a retry, or unavailable. */
export function concludeExchange(run: IssueRun, result: ExchangeResult<DocumentDecision>): Promise<IssueResult> | IssueResult {
  if (result.kind === 'retry') return result;
  if (result.kind === 'unavailable') return unavailable(run, result.detail.slice(0, 300));
  const { decision } = result;
  return finishRun(run, decision.status === 'issued' ? { ...decision, issuedAt: new Date() } : decision);
}
