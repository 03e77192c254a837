// What the use cases need from the outside, stated structurally: @talao/persistence's repositories, the authorizer
// clients and a BullMQ queue satisfy these. Field names follow prisma/schema.prisma.
import type { RequeueTarget } from '@talao/queue-contracts';
import type { Company, InvoiceRecord, NewInvoice } from '@talao/persistence';

export type EnvironmentName = 'homologation' | 'production';
export type DocumentTypeName = 'nfe' | 'nfse';

/** The company fields issuance reads: the companies table less what only billing and the admin API use. */
export type IssuingCompany = Omit<Company, 'cityName' | 'planName' | 'createdAt' | 'updatedAt'>;

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
  /** createProcessing after `admit` saw the month's credits and the invoices in flight, serialised per company. */
  createProcessingWithinQuota(
    input: NewInvoice,
    period: string,
    admit: (usage: { credits: number; inFlight: number }) => void,
  ): Promise<InvoiceRecord>;
  isInvalidated(input: Pick<NewInvoice, 'companyId' | 'environment' | 'series'>, number: number): Promise<boolean>;
  findById(id: string): Promise<InvoiceRecord | null>;
  findForCompany(companyId: string, id: string): Promise<InvoiceRecord | null>;
  /** The invoice that reissued `id`, if any: an attempt is reissued once. */
  findReplacement(id: string): Promise<string | null>;
  findStuckProcessing(before: Date, limit: number): Promise<Array<Pick<InvoiceRecord, 'id' | 'companyId' | 'updatedAt'>>>;
  touch(id: string): Promise<void>;
}

export interface UsageLedgerPort {
  creditsInPeriod(companyId: string, environment: EnvironmentName, period: string): Promise<number>;
}

/** A BullMQ Queue of the issuance queue, seen structurally. */
export type IssuanceQueuePort = RequeueTarget;

export interface IssuanceLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
