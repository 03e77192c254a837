// The whole platform as real processes for the chaos suite and the soak: the authorizer simulator, the gateway and
// every worker of the app table (tools/start/app-table.mjs), each with its environment from there as under `npm
// start`, on the run's PostgreSQL and a Redis key prefix of its own. Any worker can be SIGKILLed and started again;
// "Redis is flushed" means every key under this platform's prefix is deleted (SCAN + UNLINK), never FLUSHALL: the
// Redis server is shared with other runs.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeysRepository, CertificatesRepository, CertificateVault, createPrismaClient } from '@talao/persistence';
import { SAMPLE_TECHNICAL_RESPONSIBLE } from '@talao/fiscal-model/testing';
import { simulatorControl } from '../../authorizers/support/simulator-process.js';
import { type AppProcess, freePort, startApp } from '../../issuance/support/app-processes.js';
import { buildProjects, withBuildLock } from '../../support/app-process.js';
import { CHAOS_ENV } from '../../support/chaos-env.js';
import { createIssuingCompany } from '../../support/issuing-company.js';
import { deleteRedisKeys } from '../../support/platform-context.js';

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
  /** Extra variables per app, over the chaos defaults (CHAOS_ENV). */
  env?: Partial<Record<AppName, Record<string, string>>>;
  logLevel?: string;
}

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

  const control = simulatorControl(controlUrl, simulatorToken);

  const flushRedis = () => deleteRedisKeys(context.redisUrl, context.redisPrefix);

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
      const id = await createIssuingCompany({ prisma, certificates, sim: { control } }, { productionQuota: null });
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
