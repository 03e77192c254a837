// POST /invoices without HTTP: validation → configuration check → production quota → number reservation → invoice
// persisted as `processing` → `issue` job. State is written before work is enqueued (invariant 2); if enqueueing
// fails the invoice stays `processing` and the sweeper enqueues it later.
import { randomUUID } from 'node:crypto';
import { documentIdentity, validateInvoiceRequest } from '@talao/fiscal-model';
import { NumberTakenError, type InvoiceRecord, type NewInvoice, type Prisma } from '@talao/persistence';
import { enqueueJob } from '@talao/queue-contracts';
import { InvoiceValidationError, IssuerNotConfiguredError, NumberConflictError } from '../errors.js';
import type {
  CertificateMetadataView,
  CompaniesPort,
  EnvironmentName,
  InvoicesPort,
  IssuanceLogger,
  IssuanceQueuePort,
  IssuingCompany,
} from '../ports.js';
import { assertSigningImplemented } from './document-support.js';
import { storedRequest } from './stored-request.js';
import { issuerProfileOf, issuingProblems, profileProblems } from './issuer-configuration.js';
import { admitWithinQuota, billingPeriod, quotaCaps } from './production-quota.js';

/** The create side only checks the certificate (subject, validity); CertificatesRepository satisfies this. */
export interface CreateSideCertificatesPort {
  findActive(companyId: string): Promise<{ metadata: CertificateMetadataView } | null>;
}

export interface CreateInvoiceDeps {
  companies: CompaniesPort;
  certificates: CreateSideCertificatesPort;
  invoices: InvoicesPort;
  queue: Pick<IssuanceQueuePort, 'add'>;
  logger: IssuanceLogger;
  now?: () => Date;
}

export interface CreateInvoiceCommand {
  companyId: string;
  /** From the credential, never from the request (invariant 9). */
  environment: EnvironmentName;
  body: unknown;
}

export interface CreatedInvoice {
  invoice: InvoiceRecord;
  /** False when Redis refused the job: the invoice is safe in PostgreSQL and the sweeper will enqueue it. */
  enqueued: boolean;
}

async function loadCompany(companies: CompaniesPort, companyId: string): Promise<IssuingCompany> {
  const company = await companies.findById(companyId);
  if (!company) throw new IssuerNotConfiguredError(['company (not found)']);
  return company;
}

/** Validation and configuration, shared with reissue: the validated request and the company it is issued by. */
export async function prepareIssuance(deps: CreateInvoiceDeps, companyId: string, environment: EnvironmentName, body: unknown, now: Date) {
  // Before anything about the company: a document the platform cannot sign is refused whatever the configuration.
  assertSigningImplemented(body);
  // Read together (one wait instead of two); the certificate is only looked at once the request is valid.
  const [company, activeCertificate] = await Promise.all([loadCompany(deps.companies, companyId), deps.certificates.findActive(companyId)]);
  const profileGaps = profileProblems(company);
  if (profileGaps.length > 0) throw new IssuerNotConfiguredError(profileGaps);
  const profile = issuerProfileOf(company);
  const validation = validateInvoiceRequest(body, profile, { now });
  if (!validation.ok) throw new InvoiceValidationError(validation.errors);
  const request = validation.value;
  // What is stored (and reissued) is the body as validated, never the raw one: a field the validation ignores (an
  // NFS-e line's product) would otherwise reach jsonb unchecked.
  const validatedBody = validation.input;
  const certificate = activeCertificate?.metadata ?? null;
  const gaps = issuingProblems(company, request.documentType, certificate, now);
  if (gaps.length > 0) throw new IssuerNotConfiguredError(gaps);
  return { company, profile, request, body: validatedBody };
}

/** Reserves the number, persists the invoice as `processing` and enqueues its `issue` job. */
export async function persistAndEnqueue(
  deps: CreateInvoiceDeps,
  prepared: Awaited<ReturnType<typeof prepareIssuance>>,
  command: { environment: EnvironmentName; reissueOfId?: string; now: Date },
): Promise<CreatedInvoice> {
  const { company, profile, request } = prepared;
  const id = randomUUID();
  const series = request.series ?? (request.documentType === 'nfe' ? company.defaultNfeSeries : company.defaultNfseSeries);
  let invoice: InvoiceRecord;
  try {
    const scope = { companyId: company.id, environment: command.environment, series };
    if (request.number !== undefined && request.documentType === 'nfe' && (await deps.invoices.isInvalidated(scope, request.number)))
      throw new NumberTakenError(series, request.number, true);
    const newInvoice: NewInvoice = {
      id,
      companyId: company.id,
      environment: command.environment,
      documentType: request.documentType,
      series,
      ...(request.number !== undefined ? { number: request.number } : {}),
      request: storedRequest(prepared.body, request) as unknown as Prisma.InputJsonObject,
      createdAt: command.now,
      ...(command.reissueOfId ? { reissueOfId: command.reissueOfId } : {}),
      // Once the number is known: the access key (or DPS id) and the total the document will carry. The document
      // itself is computed by the worker that signs it.
      describe: (number) => {
        const identity = documentIdentity(request, profile, { series, number, invoiceId: id, issuedAt: command.now });
        return identity.documentType === 'nfe'
          ? { accessKey: identity.accessKey, totalAmount: identity.totalAmount }
          : { dpsId: identity.dpsId, totalAmount: identity.totalAmount };
      },
    };
    const period = billingPeriod(command.now);
    invoice = quotaCaps(company, command.environment)
      ? await deps.invoices.createProcessingWithinQuota(newInvoice, period, admitWithinQuota(company, period))
      : await deps.invoices.createProcessing(newInvoice);
  } catch (error) {
    if (error instanceof NumberTakenError) throw new NumberConflictError(error.series, error.number, error.invalidated);
    throw error;
  }
  let enqueued = true;
  try {
    await enqueueJob({ issuance: deps.queue }, { name: 'issue', data: { invoiceId: invoice.id } });
  } catch (error) {
    enqueued = false;
    deps.logger.warn(
      { invoiceId: invoice.id, error: (error as Error).message },
      'issue job not enqueued; the sweeper will re-drive the invoice',
    );
  }
  return { invoice, enqueued };
}

export async function createInvoice(deps: CreateInvoiceDeps, command: CreateInvoiceCommand): Promise<CreatedInvoice> {
  const now = deps.now?.() ?? new Date();
  const prepared = await prepareIssuance(deps, command.companyId, command.environment, command.body, now);
  return persistAndEnqueue(deps, prepared, { environment: command.environment, now });
}
