// The issuance path against real services: the run's PostgreSQL (DATABASE_URL), Redis (own key prefix per file), the
// authorizer simulator as a real process, and the issuer's own handler table (apps/issuer) run in-process by the
// worker runtime. The dependencies come from the issuer's one wiring (createIssuanceWorkerDependencies).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MutualTlsAgentPool, type SefazClientOptions } from '@talao/authorizer-clients';
import {
  type CreateInvoiceDeps,
  createIssuanceWorkerDependencies,
  type IssueDeps,
  type IssuanceWorkerSettings,
  type SweepDeps,
} from '@talao/issuance';
import { createLogger } from '@talao/observability';
import { DEFAULT_BATCHER_OPTIONS, type PrismaClient } from '@talao/persistence';
import { jobOutcomeChannel, JobOutcomeSubscription, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import { type RunningWorkerApp, startWorkerApp } from '@talao/worker-runtime';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { IssuanceHandlers } from '../../../apps/issuer/src/issuance-handlers.js';
import { SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { createIssuingCompany } from '../../support/issuing-company.js';
import { type RunningSimulator, startSimulator } from '../../authorizers/support/simulator-process.js';

export interface Harness {
  sim: RunningSimulator;
  prisma: PrismaClient;
  queue: Queue;
  createDeps: CreateInvoiceDeps;
  issueDeps: IssueDeps;
  sweepDeps: SweepDeps;
  /** REDIS_PREFIX of this harness (the queue's key prefix is this + "bull"), for an issuer process to share the queue. */
  redisPrefix: string;
  /** CERTIFICATE_ENCRYPTION_KEY the certificates were sealed with. */
  certificateKey: string;
  /** Options for a SEFAZ client like the worker's (simulator base URL, CA, timeouts), to build variants of it. */
  sefazOptions: SefazClientOptions;
  /** The issuer's handler table on the issuance queue, as the issuer app runs it (closed by stop). */
  startWorker(concurrency?: number): Promise<RunningWorkerApp>;
  /** The job outcomes the harness's workers publish, on a subscribed connection of its own (closed by stop). */
  jobOutcomes(): Promise<JobOutcomeSubscription>;
  createCompany(options?: { certificate?: boolean; productionQuota?: number | null; stateRegistration?: string | null }): Promise<string>;
  waitForFinal(invoiceId: string, timeoutMs?: number): Promise<{ status: string }>;
  stop(): Promise<void>;
}

const silent = createLogger({ name: 'issuer-e2e', level: process.env.E2E_LOG_LEVEL ?? 'silent' });
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function startHarness(): Promise<Harness> {
  const sim = await startSimulator();
  const dir = mkdtempSync(join(tmpdir(), 'talao-issuer-harness-'));
  const caBundleFile = join(dir, 'sim-ca.pem');
  writeFileSync(caBundleFile, sim.caCertificatePem);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const redisPrefix = `${process.env.REDIS_PREFIX ?? 'talao-e2e:'}issuer-${randomUUID().slice(0, 8)}:`;
  const prefix = queueKeyPrefix(redisPrefix);
  const queue = new Queue(QUEUE_NAMES.issuance, { connection: redis, prefix });
  const certificateKey = randomBytes(32).toString('base64');
  const baseUrls = { homologation: sim.baseUrl, production: sim.baseUrl };
  const settings: IssuanceWorkerSettings = {
    database: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    certificates: { encryptionKey: certificateKey },
    authorizers: { baseUrls, caBundleFile, connectTimeoutMs: 2_000, readTimeoutMs: 3_000 },
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
    worker: { concurrency: 4 },
    batching: DEFAULT_BATCHER_OPTIONS,
  };
  const dependencies = createIssuanceWorkerDependencies(settings, { queue, logger: silent });
  const { prisma, certificates, invoices } = dependencies.database;
  const variantAgents = new MutualTlsAgentPool({ caBundlePem: sim.caCertificatePem });
  const workers: RunningWorkerApp[] = [];
  const subscribers: Redis[] = [];
  const companyIds: string[] = [];

  return {
    sim,
    prisma,
    queue,
    redisPrefix,
    certificateKey,
    createDeps: dependencies.create,
    issueDeps: dependencies.issue,
    sweepDeps: dependencies.sweep,
    sefazOptions: { agents: variantAgents, baseUrlOverrides: baseUrls, timeouts: { connectMs: 2_000, readMs: 3_000 } },
    async startWorker(concurrency = 4) {
      const worker = await startWorkerApp(
        {
          name: 'issuer',
          queue: QUEUE_NAMES.issuance,
          loadConfig: () => ({
            redis: { url: redisUrl, prefix: redisPrefix },
            logging: { level: 'silent' },
            worker: { concurrency, jobLockMs: 30_000, stalledCheckMs: 30_000, health: { port: 0, host: '127.0.0.1' } },
          }),
          // The harness's own dependencies, so tests see what the worker did: the harness closes them, not the worker.
          dependencies: () => ({ issue: dependencies.issue, checks: dependencies.checks, close: async () => undefined }),
          handlers: [IssuanceHandlers],
        },
        { logger: silent },
      );
      workers.push(worker);
      return worker;
    },
    async jobOutcomes() {
      const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
      subscribers.push(subscriber);
      const outcomes = new JobOutcomeSubscription(subscriber, jobOutcomeChannel(prefix, QUEUE_NAMES.issuance));
      await outcomes.ready;
      return outcomes;
    },
    async createCompany(options = {}) {
      const companyId = await createIssuingCompany(
        { prisma, certificates, sim },
        {
          ...options,
          productionQuota: options.productionQuota === undefined ? 50 : options.productionQuota,
        },
      );
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
      await Promise.all(workers.map((worker) => worker.close()));
      for (const subscriber of subscribers) subscriber.disconnect();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      redis.disconnect();
      variantAgents.destroy();
      if (companyIds.length > 0) await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
      await dependencies.close();
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The harness of one spec file: started before its tests (with the issuer's worker unless `worker: false`),
 * faults cleared after each, stopped after all. Returns a getter, since the harness exists only once started.
 */
export function useHarness(options: { worker?: boolean } = {}): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness();
    if (options.worker !== false) await harness.startWorker();
  });
  afterAll(async () => {
    await harness?.stop();
  });
  afterEach(async () => {
    await harness?.sim.control('DELETE', '/_control/faults');
  });
  return () => {
    if (!harness) throw new Error('the harness is not started yet (use it inside a test or hook)');
    return harness;
  };
}
