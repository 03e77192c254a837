// Persist before send (invariant 3): every call to an authorizer is stored with its exact request before it leaves,
// and its exact answer after. The answer to the latest call is held in memory until the next write, so the answer that
// decides a document can be stored by the same statement as the document's final state and its outbox event (one
// round trip instead of two): `take` hands it over. An answer that decides nothing is stored before the next request
// or when the caller flushes at the end of its run. A worker dying in between leaves the call unanswered, which the
// next run treats as an unknown outcome: consult first.
import type { AuthorizerOutcome, PreparedCall } from '@talao/authorizer-clients';
import { inSpan } from '@talao/observability';
import { authorizerOf, describeCall, recordAuthorizerCall } from './exchange-metrics.js';

/** Whose calls these are: the document (one invoice) and its company. */
export interface ExchangeSubject {
  invoiceId: string;
  companyId: string;
}

/** A call as stored before it is sent. */
export interface NewTransmission extends ExchangeSubject {
  operation: string;
  endpoint: string;
  requestBody: string;
}

/** The authorizer's answer as stored after it arrived (or did not). */
export interface TransmissionAnswer {
  responseBody: string | null;
  httpStatus: number | null;
  /** The outcome's status: authorized | accepted | rejected | unavailable | unknown. */
  outcome: string;
  statusCode: string | null;
  statusMessage: string | null;
}

/** A call stored earlier (by this run or one before it), as the consult-first rule reads it. */
export interface StoredTransmission {
  operation: string;
  requestBody: string;
  /** Null while unanswered: sent, or about to be, when the worker stopped. */
  outcome: string | null;
}

/** SubmissionsRepository of @talao/persistence satisfies this. */
export interface TransmissionStore {
  /** Stored and committed when this resolves: only then may the request leave. */
  begin(input: NewTransmission): Promise<{ id: string }>;
  answer(id: string, answer: TransmissionAnswer): Promise<void>;
}

/** The repository of requests filed on a row of their own (an amendment, an invalidation, a manifestation). */
export interface FiledRequestTransmissions {
  begin(requestId: string, call: Omit<NewTransmission, keyof ExchangeSubject>): Promise<{ id: string }>;
  answer(id: string, answer: TransmissionAnswer): Promise<void>;
}

/** The store of one filed request's transmissions, in its repository. */
export function transmissionsOf(repository: FiledRequestTransmissions, requestId: string): TransmissionStore {
  return { begin: (call) => repository.begin(requestId, call), answer: (id, answer) => repository.answer(id, answer) };
}

export interface PendingAnswer {
  submissionId: string;
  answer: TransmissionAnswer;
}

export function answerOf(outcome: AuthorizerOutcome<unknown>): TransmissionAnswer {
  const last = outcome.exchanges.at(-1);
  return {
    responseBody: last?.response?.body ?? null,
    httpStatus: last?.response?.status ?? null,
    outcome: outcome.status,
    statusCode: 'code' in outcome ? (outcome.code ?? null) : null,
    statusMessage: 'message' in outcome ? (outcome.message ?? null) : 'detail' in outcome ? outcome.detail : null,
  };
}

/** The calls of one run for one subject, each stored before it is sent. */
export class ExchangeLog {
  private pending: PendingAnswer | undefined;

  constructor(
    private readonly store: TransmissionStore,
    readonly subject: ExchangeSubject,
  ) {}

  /** Stores the prepared call's exact request, sends that very call, and holds its exact answer. */
  async call<T>(prepared: PreparedCall<T>): Promise<AuthorizerOutcome<T>> {
    await this.flush();
    const { id } = await this.store.begin({
      ...this.subject,
      operation: prepared.operation,
      endpoint: prepared.url,
      requestBody: prepared.body,
    });
    const startNs = process.hrtime.bigint();
    const authorizer = authorizerOf(prepared.url);
    const outcome = await inSpan(
      `authorizer ${prepared.operation}`,
      { 'talao.authorizer.operation': prepared.operation, 'talao.authorizer.host': authorizer, 'talao.invoice.id': this.subject.invoiceId },
      () => prepared.send(),
      describeCall,
    );
    recordAuthorizerCall(prepared.operation, authorizer, outcome, startNs);
    this.pending = { submissionId: id, answer: answerOf(outcome) };
    return outcome;
  }

  /** Hands the held answer over to a caller that stores it with the final state; nothing is held afterwards. */
  take(): PendingAnswer | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  /** Stores the held answer, if any (before the next request, and when a run ends without a final state). */
  async flush(): Promise<void> {
    const pending = this.take();
    if (pending) await this.store.answer(pending.submissionId, pending.answer);
  }
}
