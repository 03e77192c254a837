// What the request side needs (the gateway's repositories and its producer of the amendments queue satisfy these).
import type { AmendmentRecord, DocumentTypeName, EnvironmentName, InvoiceRecord, NewAmendment } from '@talao/persistence';
import type { EnqueueTarget } from '@talao/queue-contracts';

export interface AmendmentInvoicesPort {
  findByAccessKey(companyId: string, environment: EnvironmentName, accessKey: string): Promise<InvoiceRecord | null>;
  findForCompany(companyId: string, id: string): Promise<InvoiceRecord | null>;
}

export interface AmendmentCompaniesPort {
  findById(id: string): Promise<{ state: string } | null>;
}

export interface AmendmentsPort {
  listForInvoice(invoiceId: string): Promise<AmendmentRecord[]>;
  create(input: NewAmendment): Promise<{ amendment: AmendmentRecord; created: boolean }>;
  findById(id: string): Promise<AmendmentRecord | null>;
}

/** The amendments queue: a failed job of a still pending amendment is removed before it is enqueued again. */
export interface AmendmentQueuePort extends EnqueueTarget {
  getJob(jobId: string): Promise<{ getState(): Promise<string>; remove(): Promise<void> } | undefined | null>;
}

export interface AmendmentRequestDeps {
  invoices: AmendmentInvoicesPort;
  companies: AmendmentCompaniesPort;
  amendments: AmendmentsPort;
  queue: AmendmentQueuePort;
  now?: () => Date;
}

export interface AmendmentScope {
  companyId: string;
  environment: EnvironmentName;
}

export type { DocumentTypeName };
