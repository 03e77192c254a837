// Plain records the issuance repositories return: numbers instead of BigInt, decimals as strings, so use cases and
// job payloads never handle Prisma's runtime types.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';

export type EnvironmentName = 'homologation' | 'production';
export type DocumentTypeName = 'nfe' | 'nfse';
export type InvoiceStatusName = 'processing' | 'issued' | 'rejected' | 'failed' | 'cancelled';

/** A client or an open transaction: repository methods that must join a caller's transaction take this. */
export type DbClient = Prisma.TransactionClient;

export interface InvoiceRecord {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  status: InvoiceStatusName;
  series: number;
  number: number;
  accessKey: string | null;
  dpsId: string | null;
  protocol: string | null;
  request: unknown;
  totalAmount: string;
  contingency: boolean;
  statusCode: string | null;
  statusMessage: string | null;
  authorizedXml: string | null;
  reissueOfId: string | null;
  /** The invalidation that took the number before the document was sent (the invoice is then `failed`). */
  invalidatedById: string | null;
  issuedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type InvoiceRow = Prisma.InvoiceGetPayload<object>;

export function toInvoiceRecord(row: InvoiceRow): InvoiceRecord {
  return { ...row, number: Number(row.number), totalAmount: row.totalAmount.toString() };
}

/**
 * The state an invoice leaves `processing` for. A field left undefined keeps its value, null clears it.
 */
export interface FinalState {
  status: Exclude<InvoiceStatusName, 'processing'>;
  accessKey?: string;
  protocol?: string | null;
  statusCode?: string | null;
  statusMessage?: string | null;
  authorizedXml?: string | null;
  issuedAt?: Date | null;
  invalidatedById?: string | null;
}

/** An outbox event as appended with the state change it reports (invariant 2). */
export interface NewOutboxEvent {
  companyId: string;
  environment: EnvironmentName;
  type: string;
  aggregateId: string;
  payload: Record<string, unknown>;
  /** The W3C traceparent of the writing run (tracing on), continued by the webhook relay. */
  traceParent?: string;
}

/** One exchange with an authorizer, byte for byte (invariant 3). Attempt numbers are per invoice, 1, 2, … */
export interface SubmissionRecord {
  id: string;
  invoiceId: string;
  companyId: string;
  attempt: number;
  operation: string;
  endpoint: string;
  requestBody: string;
  responseBody: string | null;
  httpStatus: number | null;
  outcome: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  sentAt: Date;
  answeredAt: Date | null;
}

export interface NewSubmission {
  invoiceId: string;
  companyId: string;
  operation: string;
  endpoint: string;
  requestBody: string;
}

export interface SubmissionAnswer {
  responseBody?: string | null;
  httpStatus?: number | null;
  /** authorized | accepted | rejected | unavailable | unknown. */
  outcome: string;
  statusCode?: string | null;
  statusMessage?: string | null;
}

/** How the authorizer decided an event or an invalidation (registered or refused), in its own words. */
export interface AuthorizerDecision {
  status: 'registered' | 'rejected';
  protocol: string | null;
  statusCode: string | null;
  statusMessage: string | null;
}

/** The fields an amendment or invalidation row holds of its decision. */
export interface DecidedFields {
  status: 'pending' | AuthorizerDecision['status'];
  protocol: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  registeredAt: Date | null;
  createdAt: Date;
}

/**
 * The parameters $1..$5 of a statement storing an exchange's exact request before it leaves: a new submission id, the
 * id of the row it belongs to (amendment, invalidation, manifestation), then the operation, endpoint and body.
 */
export function requestParameters(ownerId: string, call: Pick<NewSubmission, 'operation' | 'endpoint' | 'requestBody'>): unknown[] {
  return [randomUUID(), ownerId, call.operation, call.endpoint, call.requestBody];
}

/** An answer as the five parameters storing it (body, HTTP status, outcome, code, message); all null for none. */
export function answerParameters(answer: SubmissionAnswer | undefined): unknown[] {
  return [
    answer?.responseBody ?? null,
    answer?.httpStatus ?? null,
    answer?.outcome ?? null,
    answer?.statusCode ?? null,
    answer?.statusMessage ?? null,
  ];
}

/**
 * The parameters $1..$11 of a statement deciding row `id` and storing the answer that decided it: the row's id, the
 * decision (status, protocol, code, message), then the submission's id and its answer (answerParameters).
 * Amendments, invalidations and manifestations decide with this one parameter list.
 */
export function decisionParameters(
  id: string,
  decision: AuthorizerDecision,
  answered: { submissionId: string; answer: SubmissionAnswer } | undefined,
): unknown[] {
  return [
    id,
    decision.status,
    decision.protocol,
    decision.statusCode,
    decision.statusMessage,
    answered?.submissionId ?? null,
    ...answerParameters(answered?.answer),
  ];
}

/** What rides along with an invoice's final state, in the same statement. */
export interface FinishOptions {
  /** The authorizer's answer that decided the invoice, stored whether or not the invoice moves. */
  answered?: { submissionId: string; answer: SubmissionAnswer };
  /**
   * One credit of the usage ledger for the invoice, charged to the event's company and environment only when this
   * statement moved the invoice (an invoice is never charged twice: `usage_entries.invoice_id` is unique).
   */
  charge?: { documentType: DocumentTypeName; period: string; unitPrice?: string };
}
