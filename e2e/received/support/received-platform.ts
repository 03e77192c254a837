// Received-invoice collection as real processes: the authorizer simulator, the gateway and received-sync, on the
// run's PostgreSQL and a Redis key prefix of their own (environments from the one app table, as under npm start).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ApiKeysRepository, CertificatesRepository, CertificateVault, createPrismaClient } from '@talao/persistence';
import { type RunningSimulator, startSimulator } from '../../authorizers/support/simulator-process.js';
import { type AppProcess, freePort, startApp } from '../../issuance/support/app-processes.js';
import { buildProjects, withBuildLock } from '../../support/app-process.js';
import { createIssuingCompany } from '../../support/issuing-company.js';

export interface ReceivedCompany {
  id: string;
  taxId: string;
  key: string;
}

export interface ReceivedPlatform {
  sim: RunningSimulator;
  /** REDIS_PREFIX of the processes (BullMQ keys are under `${redisPrefix}bull`). */
  redisPrefix: string;
  prisma: ReturnType<typeof createPrismaClient>;
  worker(): AppProcess;
  restartWorker(): Promise<AppProcess>;
  createCompany(): Promise<ReceivedCompany>;
  api(
    method: string,
    path: string,
    key: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }>;
  /** NF-e distribution (DistDFe) queries the simulator received for the tax id. */
  queries(taxId: string): Promise<number>;
  /** NFS-e distribution (ADN) queries the simulator received for the tax id. */
  adnQueries(taxId: string): Promise<number>;
  /** The BullMQ state of a job of the received queue ('completed', 'active', …; 'unknown' once removed). */
  jobState(jobId: string): Promise<string>;
  /** Deletes every Redis key of this platform (queues, schedulers, deduplication keys): Redis lost. */
  flushRedis(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReceivedPlatform(name: string, workerEnv: Record<string, string> = {}): Promise<ReceivedPlatform> {
  const sim = await startSimulator();
  const workDir = mkdtempSync(join(tmpdir(), 'talao-received-e2e-'));
  const caFile = join(workDir, 'sim-ca.pem');
  writeFileSync(caFile, sim.caCertificatePem);
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const certificateKey = randomBytes(32).toString('base64');
  const context = {
    databaseUrl,
    redisUrl,
    redisPrefix: `${process.env.REDIS_PREFIX ?? 'talao-e2e:'}${name}-${randomUUID().slice(0, 8)}:`,
    logLevel: process.env.E2E_LOG_LEVEL ?? 'warn',
    secrets: { adminToken: randomBytes(24).toString('hex'), certificateEncryptionKey: certificateKey },
    ports: { gateway: { http: await freePort() }, 'received-sync': { health: await freePort() } },
    authorizers: { homologation: sim.baseUrl, production: sim.baseUrl, caBundleFile: caFile },
    technicalResponsible: { cnpj: '11222333000181', contact: 'E2E', email: 'e2e@talao.example', phone: '11999990000' },
  };
  const env = { RECEIVED_SYNC_SCHEDULES: 'off', AUTHORIZER_READ_TIMEOUT_MS: '5000', ...workerEnv };
  const startWorker = () => startApp('received-sync', context, env);
  const started = await withBuildLock(async () => {
    buildProjects(['@talao/gateway', '@talao/received-sync', '@talao/authorizer-sim']);
    let worker: AppProcess | undefined;
    try {
      worker = await startWorker();
      return { worker, gateway: await startApp('gateway', context) };
    } catch (error) {
      await worker?.kill('SIGKILL');
      await sim.stop();
      throw error;
    }
  });
  let worker = started.worker;
  const gateway = started.gateway;
  const prisma = createPrismaClient(databaseUrl);
  const certificates = new CertificatesRepository(prisma, new CertificateVault(certificateKey));
  const apiKeys = new ApiKeysRepository(prisma);
  const companyIds: string[] = [];
  const gatewayUrl = `http://127.0.0.1:${context.ports.gateway.http}`;
  const queueRedis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('received', { connection: queueRedis, prefix: `${context.redisPrefix}bull` });

  return {
    sim,
    redisPrefix: context.redisPrefix,
    prisma,
    worker: () => worker,
    async restartWorker() {
      await worker.kill('SIGKILL');
      worker = await withBuildLock(startWorker);
      return worker;
    },
    async createCompany() {
      const id = await createIssuingCompany({ prisma, certificates, sim }, { productionQuota: null });
      companyIds.push(id);
      const { taxId } = await prisma.company.findUniqueOrThrow({ where: { id } });
      const key = await apiKeys.create({ companyId: id, name: 'e2e', environment: 'homologation', context: 'api' });
      return { id, taxId, key: key.secret };
    },
    async api(method, path, key, payload) {
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(payload !== undefined && { 'content-type': 'application/json' }) },
        ...(payload !== undefined && { body: JSON.stringify(payload) }),
      });
      const text = await response.text();
      let body: Record<string, unknown> = {};
      if (response.headers.get('content-type')?.includes('json') && text) body = JSON.parse(text) as Record<string, unknown>;
      return { status: response.status, body, text, headers: response.headers };
    },
    async queries(taxId) {
      return Number((await sim.control('GET', `/_control/distribution/${taxId}`)).json.queries);
    },
    async adnQueries(taxId) {
      return Number((await sim.control('GET', `/_control/distribution/${taxId}`)).json.adnQueries);
    },
    async jobState(jobId) {
      return queue.getJobState(jobId);
    },
    flushRedis,
    async stop() {
      await queue.close();
      queueRedis.disconnect();
      await gateway.kill('SIGTERM');
      await worker.kill('SIGTERM');
      if (companyIds.length > 0) await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
      await flushRedis().catch(() => undefined);
      await prisma.$disconnect();
      await sim.stop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };

  async function flushRedis(): Promise<void> {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${context.redisPrefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
