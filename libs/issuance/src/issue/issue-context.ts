// Everything the worker's use case needs, and the shape of its answer.
import type { NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import type { CertificateCache, TransmissionStore } from '@talao/authorizer-exchange';
import type { TechnicalResponsible } from '@talao/fiscal-model';
import type { FinalState, FinishOptions, InvoiceRecord, NewOutboxEvent, SubmissionRecord } from '@talao/persistence';
import type { DecidedState, IssueJobResult } from '@talao/queue-contracts';
import type { CertificateMetadataView, CompaniesPort, InvoicesPort, IssuanceLogger, IssuingCompany, UsageLedgerPort } from '../ports.js';

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
  /** NF-e: the invalidation whose range holds the invoice's number (filed after the number was reserved), else null. */
  invalidationId: string | null;
}

/** InvoicesRepository of @talao/persistence satisfies this. */
export interface IssueInvoicesPort extends InvoicesPort {
  loadForIssue(invoiceId: string): Promise<IssueSnapshotView | null>;
  /** The final state with its outbox event and what rides along, in one statement; true when this call moved it. */
  finishWithEvent(id: string, state: FinalState, event: NewOutboxEvent, options?: FinishOptions): Promise<boolean>;
  /** SVC contingency: the new access key and its event in one statement; false when the invoice was decided meanwhile. */
  setContingencyIdentity(id: string, accessKey: string, event: NewOutboxEvent): Promise<boolean>;
}

export interface IssueDeps {
  companies: CompaniesPort;
  certificates: IssueCertificatesPort;
  certificateCache: CertificateCache;
  invoices: IssueInvoicesPort;
  /** Where every exchange is stored before it is sent (SubmissionsRepository of @talao/persistence). */
  submissions: TransmissionStore;
  usage: UsageLedgerPort;
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
