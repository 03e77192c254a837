// Received-invoice collection as real processes: the authorizer simulator, the gateway and received-sync, on the
// run's PostgreSQL and a Redis key prefix of their own (environments from the one app table, as under npm start).
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { createPrismaClient } from '@talao/persistence';
import { type RunningSimulator, startSimulator } from '../../authorizers/support/simulator-process.js';
import { type AppProcess, startAllOrNone, startApp } from '../../issuance/support/app-processes.js';
import { buildProjects, withBuildLock } from '../../support/app-process.js';
import { createIssuingCompany } from '../../support/issuing-company.js';
import { deleteRedisKeys, platformContext, platformDatabase } from '../../support/platform-context.js';

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
  /** Deletes every Redis key of this platform (queues, schedulers, deduplication keys): Redis lost. Resolves with how many. */
  flushRedis(): Promise<number>;
  stop(): Promise<void>;
}

export async function startReceivedPlatform(name: string, workerEnv: Record<string, string> = {}): Promise<ReceivedPlatform> {
  const sim = await startSimulator();
  const { context, removeWorkDir } = await platformContext(name, sim);
  const env = { RECEIVED_SYNC_SCHEDULES: 'off', AUTHORIZER_READ_TIMEOUT_MS: '5000', ...workerEnv };
  const startWorker = () => startApp('received-sync', context, env);
  const started = await withBuildLock(() => {
    buildProjects(['@talao/gateway', '@talao/received-sync', '@talao/authorizer-sim']);
    return startAllOrNone(
      async (up) => ({ worker: up(await startWorker()), gateway: await startApp('gateway', context) }),
      async () => {
        await sim.stop();
        removeWorkDir();
      },
    );
  });
  let worker = started.worker;
  const gateway = started.gateway;
  const database = platformDatabase(context.databaseUrl, context.secrets.certificateEncryptionKey);
  const { prisma, certificates, apiKeys } = database;
  const gatewayUrl = `http://127.0.0.1:${context.ports.gateway.http}`;
  const queueRedis = new Redis(context.redisUrl, { maxRetriesPerRequest: null });
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
      database.created(id);
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
    flushRedis: () => deleteRedisKeys(context.redisUrl, context.redisPrefix),
    async stop() {
      await queue.close();
      queueRedis.disconnect();
      await gateway.kill('SIGTERM');
      await worker.kill('SIGTERM');
      await database.close();
      await deleteRedisKeys(context.redisUrl, context.redisPrefix).catch(() => undefined);
      await sim.stop();
      removeWorkDir();
    },
  };
}
