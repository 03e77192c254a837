// The `issue` job in the queue's terms: a retry is thrown (the queue's exponential backoff applies), anything final
// completes the job with what it decided (the gateway waiting for the outcome reads it from the outcome channel).
import { type IssueJobResult, type JobPayload, RetryLaterError, type JobTry } from '@talao/queue-contracts';
import type { IssueDeps } from './issue-context.js';
import { issueInvoice } from './issue-invoice.js';

export async function runIssueJob(deps: IssueDeps, data: JobPayload<'issue'>, attempt: JobTry): Promise<IssueJobResult> {
  const result = await issueInvoice(deps, data.invoiceId, { finalAttempt: attempt.final });
  if (result.kind === 'retry') throw new RetryLaterError(result.reason);
  return result;
}
