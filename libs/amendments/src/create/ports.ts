// What the request side needs (the gateway's repositories and its producer of the amendments queue satisfy these).
import type { AmendableInvoice, AmendmentRecord, DocumentTypeName, EnvironmentName, NewAmendment } from '@talao/persistence';
import type { RequeueTarget } from '@talao/queue-contracts';

export interface AmendmentsPort {
  /** The request side's one read: the invoice by access key or id, its company's state and its amendments. */
  findAmendable(scope: AmendmentScope, key: { accessKey: string } | { id: string }): Promise<AmendableInvoice | null>;
  create(input: NewAmendment): Promise<{ amendment: AmendmentRecord; created: boolean }>;
  findById(id: string): Promise<AmendmentRecord | null>;
}

/** The amendments queue: a failed job of a still pending amendment is removed before it is enqueued again. */
export type AmendmentQueuePort = RequeueTarget;

export interface AmendmentRequestDeps {
  amendments: AmendmentsPort;
  queue: AmendmentQueuePort;
  now?: () => Date;
}

export interface AmendmentScope {
  companyId: string;
  environment: EnvironmentName;
}

export type { DocumentTypeName };
