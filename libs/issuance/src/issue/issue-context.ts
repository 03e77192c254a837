// Everything the worker's use case needs, and the shape of its answer.
import type { NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import type { TechnicalResponsible } from '@talao/fiscal-model';
import type { CertificateMetadataView, CompaniesPort, InvoicesPort, IssuanceLogger, OutboxPort, UsageLedgerPort } from '../ports.js';
import type { IssueSubmissionsPort } from './answer-buffer.js';
import type { CertificateCache } from './certificate-cache.js';

/**
 * The worker's view of certificates (CertificatesRepository of @talao/persistence satisfies it): metadata on every
 * job, the sealed PKCS#12 decrypted only when the CertificateCache has not parsed that certificate yet.
 */
export interface IssueCertificatesPort {
  findActiveSummary(companyId: string): Promise<{ id: string; metadata: CertificateMetadataView } | null>;
  unseal(certificateId: string): Promise<{ pkcs12: Buffer; password: string } | null>;
}

export interface IssueDeps {
  companies: CompaniesPort;
  certificates: IssueCertificatesPort;
  certificateCache: CertificateCache;
  invoices: InvoicesPort;
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
 * - `final`: the invoice reached (or already had) a final state;
 * - `retry`: try again later (authorizer unavailable, or an unknown outcome not yet reconciled);
 * - `skipped`: nothing to do (no such invoice).
 */
export type IssueResult =
  | { kind: 'final'; status: 'issued' | 'rejected' | 'failed' | 'cancelled'; alreadyFinal?: boolean }
  | { kind: 'retry'; reason: string }
  | { kind: 'skipped'; reason: string };

/** A retry is asked for by throwing this from the job handler, so BullMQ applies the queue's backoff. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
}
