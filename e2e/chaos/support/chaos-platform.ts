// The whole platform as real processes for the chaos suite and the soak: the authorizer simulator, the gateway and
// every worker of the app table (tools/start/app-table.mjs), each with its environment from there as under `npm
// start`, on the run's PostgreSQL and a Redis key prefix of its own. Any worker can be SIGKILLed and started again;
// "Redis is flushed" means every key under this platform's prefix is deleted (SCAN + UNLINK), never FLUSHALL: the
// Redis server is shared with other runs.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ApiKeysRepository, CertificatesRepository, CertificateVault, createPrismaClient } from '@talao/persistence';
import { SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { type AppProcess, freePort, startApp } from '../../issuance/support/app-processes.js';
import { buildProjects, withBuildLock } from '../../support/app-process.js';
import { createIssuingCompany } from '../../support/issuing-company.js';

/** The workers a chaos run kills, in start order (the gateway starts last and is never killed). */
export const WORKERS = ['issuer', 'canceller', 'webhook-dispatcher', 'pdf-renderer', 'received-sync'] as const;
export type WorkerName = (typeof WORKERS)[number];
export type AppName = WorkerName | 'gateway' | 'authorizer-sim';

export interface ChaosCompany {
  id: string;
  taxId: string;
  key: string;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface ChaosPlatform {
  gatewayUrl: string;
  prisma: ReturnType<typeof createPrismaClient>;
  redisPrefix: string;
  /** The simulator's control API (PUT /_control/faults/*, GET /_control/issued/{taxId}, …). */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  api(method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>;
  createCompany(): Promise<ChaosCompany>;
  /** SIGKILL (the whole process group: the pdf-renderer's Chromium too), then a fresh process with the same environment. */
  restart(name: WorkerName): Promise<void>;
  /** Deletes every key under this platform's prefix: queues, schedulers, locks, rate-limit counters. */
  flushRedis(): Promise<number>;
  /** Process ids by app (the simulator and the gateway included), for RSS sampling. */
  pids(): Record<string, number>;
  /** An app's stderr and first log lines (warn and above at the default level), for a failure's report. */
  output(name: AppName): string[];
  stop(): Promise<void>;
}

export interface ChaosPlatformOptions {
  /** Extra variables per app, over the chaos defaults below. */
  env?: Partial<Record<AppName, Record<string, string>>>;
  logLevel?: string;
}

/** Short locks, stalled checks and sweeps: a killed worker's work comes back in seconds, not the production minutes. */
const CHAOS_ENV: Record<AppName, Record<string, string>> = {
  'authorizer-sim': {},
  issuer: {
    ISSUER_CONCURRENCY: '8',
    ISSUER_JOB_LOCK_MS: '3000',
    ISSUER_STALLED_CHECK_MS: '1000',
    SWEEPER_INTERVAL_MS: '1000',
    SWEEPER_STALE_AFTER_MS: '5000',
    AUTHORIZER_READ_TIMEOUT_MS: '2000',
  },
  canceller: {
    CANCELLER_JOB_LOCK_MS: '2000',
    CANCELLER_STALLED_CHECK_MS: '1000',
    CANCELLER_SWEEP_INTERVAL_MS: '1000',
    CANCELLER_SWEEP_STALE_AFTER_MS: '3000',
    AUTHORIZER_READ_TIMEOUT_MS: '2000',
  },
  'webhook-dispatcher': {
    WEBHOOK_RETRY_BASE_DELAY_MS: '100',
    WEBHOOK_DELIVERY_TIMEOUT_MS: '1000',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
    WEBHOOK_SWEEP_GRACE_MS: '2000',
    WEBHOOK_DISPATCHER_JOB_LOCK_MS: '2000',
    WEBHOOK_DISPATCHER_STALLED_CHECK_MS: '1000',
  },
  'pdf-renderer': {
    PDF_RENDERER_PAGES: '2',
    PDF_RENDERER_JOB_LOCK_MS: '3000',
    PDF_RENDERER_STALLED_CHECK_MS: '1000',
  },
  'received-sync': {
    RECEIVED_SYNC_SCHEDULES: 'off',
    // A manifestation whose job the Redis flush took is re-driven within the settle time (the default waits 3 min).
    RECEIVED_MANIFESTATION_REDRIVE_AFTER_MS: '20000',
    RECEIVED_MANIFESTATION_REDRIVE_INTERVAL_MS: '5000',
    RECEIVED_SYNC_JOB_LOCK_MS: '3000',
    RECEIVED_SYNC_STALLED_CHECK_MS: '1000',
    AUTHORIZER_READ_TIMEOUT_MS: '2000',
  },
  gateway: {
    ISSUE_WAIT_MS: '4000',
    AMENDMENT_WAIT_MS: '4000',
    PDF_WAIT_MS: '5000',
    QUEUE_AMENDMENTS_ATTEMPTS: '20',
    QUEUE_AMENDMENTS_BACKOFF_MS: '200',
    // The load is the test's, not a tenant's abuse: no operation may be throttled.
    RATE_LIMIT_CREATE_INVOICE: '1000000',
    RATE_LIMIT_CANCEL_INVOICE: '1000000',
    RATE_LIMIT_CORRECT_INVOICE: '1000000',
    RATE_LIMIT_INVALIDATE_NUMBERING: '1000000',
    RATE_LIMIT_LIST_INVALIDATIONS: '1000000',
    RATE_LIMIT_GET_INVOICE: '1000000',
    RATE_LIMIT_LIST_INVOICES: '1000000',
    RATE_LIMIT_GET_INVOICE_PDF: '1000000',
    RATE_LIMIT_SYNC_RECEIVED_INVOICES: '1000000',
    RATE_LIMIT_LIST_RECEIVED_INVOICES: '1000000',
    RATE_LIMIT_CREATE_WEBHOOK: '1000000',
  },
};

export async function startChaosPlatform(name: string, options: ChaosPlatformOptions = {}): Promise<ChaosPlatform> {
  const workDir = mkdtempSync(join(tmpdir(), `talao-${name}-`));
  const caFile = join(workDir, 'sim-ca.pem');
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const certificateKey = randomBytes(32).toString('base64');
  const ports: Record<string, Record<string, number>> = {
    'authorizer-sim': { https: await freePort(), control: await freePort() },
    gateway: { http: await freePort() },
  };
  for (const worker of WORKERS) ports[worker] = { health: await freePort() };
  const simulatorToken = randomBytes(16).toString('hex');
  const context = {
    databaseUrl,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: `${process.env.REDIS_PREFIX ?? 'talao-chaos:'}${name}-${randomUUID().slice(0, 8)}:`,
    logLevel: options.logLevel ?? process.env.E2E_LOG_LEVEL ?? 'warn',
    secrets: {
      adminToken: randomBytes(24).toString('hex'),
      certificateEncryptionKey: certificateKey,
      simulatorControlToken: simulatorToken,
    },
    ports,
    authorizers: {
      homologation: `https://127.0.0.1:${ports['authorizer-sim']!.https}`,
      production: `https://127.0.0.1:${ports['authorizer-sim']!.https}`,
      caBundleFile: caFile,
    },
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
    simulator: { dataDir: join(workDir, 'sim') },
  };
  const envOf = (app: AppName) => ({ ...CHAOS_ENV[app], ...options.env?.[app] });
  const start = (app: AppName) => startApp(app, context, envOf(app));
  const running = new Map<AppName, AppProcess>();

  const stopAll = async (signal: NodeJS.Signals) => {
    for (const app of ['gateway', ...[...WORKERS].reverse(), 'authorizer-sim'] as AppName[]) await running.get(app)?.kill(signal);
  };
  await withBuildLock(async () => {
    buildProjects([
      '@talao/authorizer-sim',
      '@talao/gateway',
      '@talao/issuer',
      '@talao/canceller',
      '@talao/webhook-dispatcher',
      '@talao/pdf-renderer',
      '@talao/received-sync',
    ]);
    try {
      running.set('authorizer-sim', await start('authorizer-sim'));
      // The simulator writes its CA at start; the apps trust it through AUTHORIZER_CA_BUNDLE_FILE.
      writeFileSync(caFile, readFileSync(join(context.simulator.dataDir, 'ca-certificate.pem')));
      for (const worker of WORKERS) running.set(worker, await start(worker));
      running.set('gateway', await start('gateway'));
    } catch (error) {
      await stopAll('SIGKILL');
      rmSync(workDir, { recursive: true, force: true });
      throw error;
    }
  });

  const prisma = createPrismaClient(databaseUrl);
  const certificates = new CertificatesRepository(prisma, new CertificateVault(certificateKey));
  const apiKeys = new ApiKeysRepository(prisma);
  const companyIds: string[] = [];
  const gatewayUrl = `http://127.0.0.1:${ports.gateway!.http}`;
  const controlUrl = `http://127.0.0.1:${ports['authorizer-sim']!.control}`;

  const control: ChaosPlatform['control'] = async (method, path, body) => {
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${simulatorToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };

  const flushRedis = async () => {
    const redis = new Redis(context.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => undefined); // an unreachable Redis fails the SCAN below, with its own message
    let deleted = 0;
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${context.redisPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
        if (keys.length > 0) deleted += await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    return deleted;
  };

  return {
    gatewayUrl,
    prisma,
    redisPrefix: context.redisPrefix,
    control,
    async api(method, path, key, body, headers = {}) {
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      let parsed: Record<string, unknown> = {};
      if (response.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text) as Record<string, unknown>;
      return { status: response.status, body: parsed };
    },
    async createCompany() {
      const sim = { control: (method: string, path: string, body?: unknown) => control(method, path, body) };
      const id = await createIssuingCompany({ prisma, certificates, sim }, { productionQuota: null });
      companyIds.push(id);
      const { taxId } = await prisma.company.findUniqueOrThrow({ where: { id } });
      const key = await apiKeys.create({ companyId: id, name: 'chaos', environment: 'homologation', context: 'api' });
      return { id, taxId, key: key.secret };
    },
    async restart(worker) {
      await running.get(worker)?.kill('SIGKILL');
      // Under the build lock: another suite's build must not rewrite a lib's dist while this process loads it.
      running.set(worker, await withBuildLock(() => start(worker)));
    },
    flushRedis,
    output(name) {
      return running.get(name)?.output ?? [];
    },
    pids() {
      return Object.fromEntries([...running].map(([app, process]) => [app, process.child.pid ?? 0]));
    },
    async stop() {
      await stopAll('SIGTERM');
      if (companyIds.length > 0 && !process.env.KEEP_TEST_DB) await prisma.company.deleteMany({ where: { id: { in: companyIds } } });
      await prisma.$disconnect();
      await flushRedis().catch(() => 0);
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
