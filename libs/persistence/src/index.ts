// @talao/persistence: the Prisma client on PostgreSQL, the certificate vault and the repositories.
export { createPrismaClient, type PrismaClientOptions } from './prisma-client.js';
export { createDatabase, type Database, type DatabaseOptions } from './database.js';
export {
  PrismaClient,
  Prisma,
  Environment,
  ApiKeyContext,
  TaxRegime,
  DocumentType,
  InvoiceStatus,
  type Company,
  type Certificate,
  type ApiKey,
  type NumberSequence,
  type Invoice,
  type Submission,
  type IdempotencyRecord,
  type UsageEntry,
  type OutboxEvent,
} from './generated/prisma/client.js';
export { CertificateVault, type CertificateVaultOptions } from './certificate-vault.js';
export { ActiveKeyLimitError, CompanyNotFoundError, CompanyTaxIdTakenError } from './errors.js';
export { parseApiKey, hashApiKey, type ParsedApiKey } from './repositories/api-key-format.js';
export { ApiKeysRepository, MAX_ACTIVE_KEYS_PER_COMPANY, type NewApiKey, type ResolvedApiKey } from './repositories/api-keys-repository.js';
export { CompaniesRepository, type NewCompany, type CompanyPatch } from './repositories/companies-repository.js';
export {
  CertificatesRepository,
  type ActiveCertificate,
  type CertificateMetadata,
  type NewCertificate,
} from './repositories/certificates-repository.js';
// Issuance (invoices, number sequences, submissions, usage ledger, outbox).
export type {
  DbClient,
  DocumentTypeName,
  EnvironmentName,
  FinalState,
  FinishOptions,
  InvoiceRecord,
  InvoiceStatusName,
  NewOutboxEvent,
  NewSubmission,
  SubmissionAnswer,
  SubmissionRecord,
} from './repositories/issuance-records.js';
export {
  AlreadyReissuedError,
  type InvoiceListQuery,
  InvoicesRepository,
  type NewInvoice,
  NumberTakenError,
} from './repositories/invoices-repository.js';
export { NumberSequencesRepository, type SequenceKey } from './repositories/number-sequences-repository.js';
export {
  coalescingSqlRunner,
  createSqlPool,
  NUMBERING_POOL_OPTIONS,
  pgPoolSqlRunner,
  prismaSqlRunner,
  type SqlPoolOptions,
  type SqlRunner,
} from './repositories/sql-runner.js';
export { DEFAULT_BATCHER_OPTIONS, StatementBatcher, type StatementBatcherOptions } from './repositories/statement-batcher.js';
export { SubmissionsRepository } from './repositories/submissions-repository.js';
export { UsageLedgerRepository } from './repositories/usage-ledger-repository.js';
export { type OutboxEventRecord, OutboxRepository } from './repositories/outbox-repository.js';
export { type IssueSnapshot } from './repositories/issue-snapshot.js';
// Received invoices (distribution sync and its reads).
export {
  type ReceivedDocumentInput,
  ReceivedDocumentsRepository,
  type ReceivedEventInput,
  type ReceivedPage,
  type ReceivedScope,
  type ReceivedSyncSession,
  type ReceivedSyncStateRecord,
} from './repositories/received-documents-repository.js';
export {
  type ReceivedDocumentRecord,
  ReceivedDocumentsReads,
  type ReceivedEventRecord,
  type ReceivedListQuery,
} from './repositories/received-documents-reads.js';
