// The issuance path against real services: the run's PostgreSQL (DATABASE_URL), Redis (own key prefix per file), the
// authorizer simulator as a real process, and the issuer's own BullMQ worker (apps/issuer) consuming the queue.
import { randomBytes, randomUUID } from 'node:crypto';
import { MutualTlsAgentPool, NfseNacionalClient, SefazClient, type SefazClientOptions } from '@talao/authorizer-clients';
import { CertificateCache, type CreateInvoiceDeps, type IssueDeps, type SweepDeps } from '@talao/issuance';
import { createLogger } from '@talao/observability';
import {
  CertificatesRepository, CertificateVault, CompaniesRepository, createPrismaClient, InvoicesRepository, SubmissionsRepository, UsageLedgerRepository,
} from '@talao/persistence';
import { jobOutcomeChannel, JobOutcomeSubscription, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createIssueWorker, issuanceHandlers } from '../../../apps/issuer/src/issue-worker.js';
import { SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { createIssuingCompany } from '../../support/issuing-company.js';
import { type RunningSimulator, startSimulator } from '../../authorizers/support/simulator-process.js';

export interface Harness {
  sim: RunningSimulator;
  prisma: ReturnType<typeof createPrismaClient>;
  queue: Queue;
  createDeps: CreateInvoiceDeps;
  issueDeps: IssueDeps;
  sweepDeps: SweepDeps;
  /** REDIS_PREFIX of this harness (the queue's key prefix is this + "bull"), for an issuer process to share the queue. */
  redisPrefix: string;
  /** CERTIFICATE_ENCRYPTION_KEY the certificates were sealed with. */
  certificateKey: string;
  /** The SEFAZ client's options (simulator base URL, CA, timeouts), to build variants of the client. */
  sefazOptions: SefazClientOptions;
  startWorker(concurrency?: number): Worker;
  /** The job outcomes the harness's workers publish, on a subscribed connection of its own (closed by stop). */
  jobOutcomes(): Promise<JobOutcomeSubscription>;
  createCompany(options?: { certificate?: boolean; productionQuota?: number | null; stateRegistration?: string | null }): Promise<string>;
  waitForFinal(invoiceId: string, timeoutMs?: number): Promise<{ status: string }>;
  stop(): Promise<void>;
}

const silent = createLogger({ name: 'issuer-e2e', level: process.env.E2E_LOG_LEVEL ?? 'silent' });

/** A numeric CNPJ nobody else in the run uses (shape only; the simulator checks it against the certificate). */
export async function startHarness(): Promise<Harness> {
  const sim = await startSimulator();
  const prisma = createPrismaClient(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const redisPrefix = `${process.env.REDIS_PREFIX ?? 'talao-e2e:'}issuer-${randomUUID().slice(0, 8)}:`;
  const prefix = queueKeyPrefix(redisPrefix);
  const queue = new Queue(QUEUE_NAMES.issuance, { connection: redis, prefix });
  const agents = new MutualTlsAgentPool({ caBundlePem: sim.caCertificatePem });
  const overrides = { homologation: sim.baseUrl, production: sim.baseUrl };
  const timeouts = { connectMs: 2_000, readMs: 3_000 };
  const sefazOptions: SefazClientOptions = { agents, baseUrlOverrides: overrides, timeouts, asyncPolling: { intervalMs: 200, maxAttempts: 5 } };
  const certificateKey = randomBytes(32).toString('base64');
  const vault = new CertificateVault(certificateKey);
  const companies = new CompaniesRepository(prisma);
  const certificates = new CertificatesRepository(prisma, vault);
  const invoices = new InvoicesRepository(prisma);
  const usage = new UsageLedgerRepository(prisma);
  const issueDeps: IssueDeps = {
    companies, certificates, certificateCache: new CertificateCache(), invoices, usage,
    submissions: new SubmissionsRepository(prisma),
    sefaz: new SefazClient(sefazOptions),
    nfse: new NfseNacionalClient({ agents, baseUrlOverrides: overrides, timeouts }),
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
    logger: silent,
  };
  const createDeps: CreateInvoiceDeps = { companies, certificates, invoices, usage, queue, logger: silent };
  const workers: Worker[] = [];
  const subscribers: Redis[] = [];
  const companyIds: string[] = [];

  return {
    sim, prisma, queue, createDeps, issueDeps, sefazOptions, redisPrefix, certificateKey,
    sweepDeps: { invoices, queue, logger: silent },
    startWorker(concurrency = 4) {
      const worker = createIssueWorker(issuanceHandlers(issueDeps), { connection: redis, prefix, concurrency, logger: silent });
      workers.push(worker);
      return worker;
    },
    async jobOutcomes() {
      const subscriber = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
      subscribers.push(subscriber);
      const outcomes = new JobOutcomeSubscription(subscriber, jobOutcomeChannel(prefix, QUEUE_NAMES.issuance));
      await outcomes.ready;
      return outcomes;
    },
    async createCompany(options = {}) {
      const companyId = await createIssuingCompany({ prisma, certificates, sim }, {
        ...options,
        productionQuota: options.productionQuota === undefined ? 50 : options.productionQuota,
      });
      companyIds.push(companyId);
      return companyId;
    },
    async waitForFinal(invoiceId, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const invoice = await invoices.findById(invoiceId);
        if (invoice && invoice.status !== 'processing') return invoice;
        if (Date.now() > deadline) throw new Error(`invoice ${invoiceId} still ${invoice?.status ?? 'missing'} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      await Promise.all(workers.map((w) => w.close()));
      for (const subscriber of subscribers) subscriber.disconnect();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      redis.disconnect();
      agents.destroy();
      if (companyIds.length > 0) await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
      await prisma.$disconnect();
      await sim.stop();
    },
  };
}
