// What the use cases need from the outside, stated structurally: @talao/persistence's repositories, the authorizer
// clients and a BullMQ queue satisfy these. Field names follow prisma/schema.prisma.
import type { EnqueueTarget } from '@talao/queue-contracts';
import type { DbClient, FinalState, InvoiceRecord, NewInvoice, NewOutboxEvent, SubmissionAnswer, SubmissionRecord } from '@talao/persistence';

export type EnvironmentName = 'homologation' | 'production';
export type DocumentTypeName = 'nfe' | 'nfse';

/** The company fields issuance reads (a subset of the companies table). */
export interface IssuingCompany {
  id: string;
  taxId: string;
  stateRegistration: string | null;
  municipalRegistration: string | null;
  legalName: string;
  tradeName: string | null;
  taxRegime: string | null;
  street: string | null;
  number: string | null;
  complement: string | null;
  district: string | null;
  cityCode: string;
  state: string;
  postalCode: string | null;
  phone: string | null;
  email: string | null;
  defaultNfeSeries: number;
  defaultNfseSeries: number;
  defaultNfseServiceCode: string | null;
  productionQuota: number | null;
  overagePrice: { toString(): string } | null;
}

export interface CompaniesPort {
  findById(id: string): Promise<IssuingCompany | null>;
}

/** The company's active A1 certificate (decrypted by the persistence vault): metadata for the check, bytes to sign. */
export interface CertificateMetadataView {
  subjectTaxId: string;
  notBefore: Date;
  notAfter: Date;
}

export interface ActiveCertificateView {
  id: string;
  pkcs12: Buffer;
  password: string;
  metadata: CertificateMetadataView;
}

/** CertificatesRepository of @talao/persistence satisfies this. */
export interface CertificatesPort {
  findActive(companyId: string): Promise<ActiveCertificateView | null>;
}

export interface InvoicesPort {
  createProcessing(input: NewInvoice): Promise<InvoiceRecord>;
  findById(id: string, client?: DbClient): Promise<InvoiceRecord | null>;
  findForCompany(companyId: string, id: string): Promise<InvoiceRecord | null>;
  /** The invoice that reissued `id`, if any: an attempt is reissued once. */
  findReplacement(id: string): Promise<string | null>;
  findStuckProcessing(before: Date, limit: number): Promise<Array<Pick<InvoiceRecord, 'id' | 'companyId' | 'updatedAt'>>>;
  countInFlight(companyId: string, environment: EnvironmentName): Promise<number>;
  setDocumentIdentity(tx: DbClient, id: string, identity: { accessKey?: string; dpsId?: string; contingency?: boolean }): Promise<void>;
  touch(id: string): Promise<void>;
  finish(tx: DbClient, id: string, state: FinalState): Promise<boolean>;
  /** `finish` plus the outbox event reporting it, atomically (one statement); the event only if this call moved it. */
  finishWithEvent(id: string, state: FinalState, event: NewOutboxEvent): Promise<boolean>;
  transaction<T>(work: (tx: DbClient) => Promise<T>): Promise<T>;
}

export interface SubmissionsPort {
  begin(input: { invoiceId: string; companyId: string; operation: string; endpoint: string; requestBody: string }): Promise<SubmissionRecord>;
  answer(id: string, answer: SubmissionAnswer): Promise<void>;
  listByInvoice(invoiceId: string): Promise<SubmissionRecord[]>;
}

export interface UsageLedgerPort {
  creditsInPeriod(companyId: string, environment: EnvironmentName, period: string, client?: DbClient): Promise<number>;
  charge(tx: DbClient, entry: { companyId: string; environment: EnvironmentName; invoiceId: string; documentType: DocumentTypeName; period: string; unitPrice?: string }): Promise<void>;
}

export interface OutboxPort {
  append(tx: DbClient, event: { companyId: string; environment: EnvironmentName; type: string; aggregateId: string; payload: Record<string, unknown> }): Promise<void>;
}

/** A BullMQ Queue of the issuance queue, seen structurally. */
export interface IssuanceQueuePort extends EnqueueTarget {
  getJob(jobId: string): Promise<{ getState(): Promise<string>; remove(): Promise<void> } | undefined | null>;
}

export interface IssuanceLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
