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
  type WebhookEndpoint,
  type WebhookDelivery,
  type DocumentPdf,
} from './generated/prisma/client.js';
export { CertificateVault, type CertificateVaultOptions } from './certificate-vault.js';
export { ActiveKeyLimitError, CompanyNotFoundError, CompanyTaxIdTakenError, isDatabaseBusy } from './errors.js';
export { isUuid } from './uuid.js';
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
export type * from './repositories/issuance-records.js';
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
// Webhooks (issue 17): registered endpoints and the deliveries fanned out of the outbox.
export {
  MAX_WEBHOOK_ENDPOINTS,
  type NewWebhookEndpoint,
  WebhookEndpointLimitError,
  type WebhookEndpointRecord,
  WebhookEndpointsRepository,
  type WebhookScope,
} from './repositories/webhook-endpoints-repository.js';
export {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryListQuery,
  type DeliveryLogRecord,
  type NewDeliveryRef,
  type PlannedDelivery,
  type RelayEndpoint,
  type RelayEvent,
  WEBHOOK_DELIVERY_STATUSES,
  WebhookDeliveriesRepository,
  type WebhookDeliveryStatus,
} from './repositories/webhook-deliveries-repository.js';
export {
  DocumentPdfsRepository,
  type NewStoredPdf,
  type PdfLookup,
  type RenderSubject,
  type StoredPdf,
} from './repositories/document-pdfs-repository.js';
// Amendments (cancellation, CC-e) filed on issued documents: apps/canceller and the gateway's amendment routes.
export {
  type AmendmentDecision,
  type AmendmentKind,
  type AmendmentRecord,
  AmendmentsRepository,
  type AmendmentStatus,
  type AmendmentTransmission,
  type NewAmendment,
} from './repositories/amendments-repository.js';
export { type AmendableInvoice, type AmendedInvoice, type AmendJobSnapshot } from './repositories/amendment-reads.js';
export {
  type FileInvalidationResult,
  type InvalidationConflict,
  type InvalidationRecord,
  InvalidationsRepository,
  type NewInvalidation,
} from './repositories/invalidations-repository.js';
// Received invoices (distribution sync and its reads).
export {
  type ReceivedCapState,
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
export {
  type ManifestableDocument,
  type ManifestationAnswer,
  type ManifestationDecision,
  type ManifestationRecord,
  ReceivedManifestationsRepository,
} from './repositories/received-manifestations-repository.js';
