// The authorizer's answer to the run's latest exchange, held in memory until the next write, so that the answer that
// decides an invoice is stored by the same statement as the invoice's final state and its outbox event (one round
// trip instead of two). Invariant 3 holds: the request is stored before it is sent (begin is never deferred) and the
// answer after it arrived; an answer that decides nothing is stored before the next request (`begin` flushes) or when
// the run ends (issueInvoice flushes in `finally`). A worker dying in between leaves the submission unanswered,
// which the next run already treats as an unknown outcome: consult first.
import type { FinalState, NewOutboxEvent, SubmissionAnswer, SubmissionRecord } from '@talao/persistence';
import type { SubmissionsPort } from '../ports.js';

export interface PendingAnswer {
  submissionId: string;
  answer: SubmissionAnswer;
}

/** SubmissionsRepository of @talao/persistence satisfies this. */
export interface IssueSubmissionsPort extends SubmissionsPort {
  /** Stores the answer, and moves the invoice out of `processing` with its event, in one statement. */
  answerAndFinish(pending: PendingAnswer, invoiceId: string, state: FinalState, event: NewOutboxEvent): Promise<boolean>;
}

export class AnswerBuffer implements SubmissionsPort {
  private pending: PendingAnswer | undefined;

  constructor(private readonly store: IssueSubmissionsPort) {}

  async begin(input: Parameters<SubmissionsPort['begin']>[0]): Promise<SubmissionRecord> {
    await this.flush();
    return this.store.begin(input);
  }

  async answer(id: string, answer: SubmissionAnswer): Promise<void> {
    await this.flush();
    this.pending = { submissionId: id, answer };
  }

  listByInvoice(invoiceId: string): Promise<SubmissionRecord[]> {
    return this.store.listByInvoice(invoiceId);
  }

  /** Hands the held answer over to a caller that stores it (answerAndFinish); nothing is held afterwards. */
  take(): PendingAnswer | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  async flush(): Promise<void> {
    const pending = this.take();
    if (pending) await this.store.answer(pending.submissionId, pending.answer);
  }
}
