// Everything the worker's use case needs, and the shape of its answer.
import type { NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import type { TechnicalResponsible } from '@talao/fiscal-model';
import type { InvoiceRecord, SubmissionRecord } from '@talao/persistence';
import type { DecidedState, IssueJobResult } from '@talao/queue-contracts';
import type { CertificateMetadataView, CompaniesPort, InvoicesPort, IssuanceLogger, IssuingCompany, OutboxPort, UsageLedgerPort } from '../ports.js';
import type { IssueSubmissionsPort } from './answer-buffer.js';
import type { CertificateCache } from './certificate-cache.js';

export type { DecidedState };

/**
 * The worker's view of certificates (CertificatesRepository of @talao/persistence satisfies it): the sealed PKCS#12
 * decrypted only when the CertificateCache has not parsed that certificate yet (its metadata comes with the snapshot).
 */
export interface IssueCertificatesPort {
  unseal(certificateId: string): Promise<{ pkcs12: Buffer; password: string } | null>;
}

/** Everything a run starts from, read in one snapshot (InvoicesRepository.loadForIssue of @talao/persistence). */
export interface IssueSnapshotView {
  invoice: InvoiceRecord;
  company: IssuingCompany | null;
  certificate: { id: string; metadata: CertificateMetadataView } | null;
  /** The invoice's exchanges so far, oldest first. */
  submissions: SubmissionRecord[];
}

export interface IssueInvoicesPort extends InvoicesPort {
  loadForIssue(invoiceId: string): Promise<IssueSnapshotView | null>;
}

export interface IssueDeps {
  companies: CompaniesPort;
  certificates: IssueCertificatesPort;
  certificateCache: CertificateCache;
  invoices: IssueInvoicesPort;
  submissions: IssueSubmissionsPort;
  usage: UsageLedgerPort;
  outbox: OutboxPort;
  sefaz: SefazClient;
  nfse: NfseNacionalClient;
  technicalResponsible: TechnicalResponsible;
  logger: IssuanceLogger;
  now?: () => Date;
}

export interface IssueOptions {
  /** This is the job's last try: an authorizer that is still unavailable makes the invoice `failed`. */
  finalAttempt: boolean;
}

/**
 * The use case's answer: an `issue` job's result (@talao/queue-contracts: `final` with what it decided, or
 * `skipped`), or `retry` — try again later (authorizer unavailable, or an unknown outcome not yet reconciled).
 */
export type IssueResult = IssueJobResult | { kind: 'retry'; reason: string };
