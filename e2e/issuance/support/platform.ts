// The whole issuance path as real processes: the authorizer simulator, the issuer and the gateway, on the run's
// PostgreSQL (DATABASE_URL) and Redis (a key prefix of this file's own). Companies, certificates (issued by the
// simulator's CA) and API keys are created directly in the database, as an operator would through the admin API.
import type { CertificatesRepository, createPrismaClient } from '@talao/persistence';
import { deleteRedisKeys, platformContext, platformDatabase } from '../../support/platform-context.js';
import { createIssuingCompany, type IssuingCompanyOptions } from '../../support/issuing-company.js';
import { type RunningSimulator, startSimulator } from '../../authorizers/support/simulator-process.js';
import { type AppProcess, startAllOrNone, startApp, withBuiltApps } from './app-processes.js';

export interface CompanyOptions {
  certificate?: boolean;
  productionQuota?: number | null;
  taxRegime?: IssuingCompanyOptions['taxRegime'];
}

export interface TestCompany {
  id: string;
  homologationKey: string;
  productionKey: string;
}

export interface Platform {
  sim: RunningSimulator;
  prisma: ReturnType<typeof createPrismaClient>;
  /** The companies' certificates (sealed with this platform's key), for a bench that signs beside the apps. */
  certificates: CertificatesRepository;
  gatewayUrl: string;
  /** Redis and the key prefix of this platform's queues and keys. */
  redis: { url: string; prefix: string };
  issuer(): AppProcess;
  /** The webhook dispatcher, when started (PlatformOptions.webhookDispatcherEnv). */
  dispatcher(): AppProcess | undefined;
  /** Starts the dispatcher again (after a kill) with the same environment. */
  restartDispatcher(): Promise<AppProcess>;
  gateway(): AppProcess;
  /** The pdf-renderer, when started (PlatformOptions.pdfRendererEnv). */
  pdfRenderer(): AppProcess | undefined;
  /** The canceller, when the platform was started with `canceller: true`. */
  canceller(): AppProcess | undefined;
  /** Starts the canceller again (after a kill) with the same environment. */
  restartCanceller(): Promise<AppProcess>;
  /** Starts the issuer again (after a kill) with the same environment. */
  restartIssuer(): Promise<AppProcess>;
  /** Starts another app of the table (received-sync, mcp, …) on this platform's context; stopped by stop(). */
  startExtraApp(name: string, overrides?: Record<string, string>): Promise<AppProcess>;
  /** The gateway's ADMIN_TOKEN. */
  adminToken: string;
  /** Each app's ports, by name and role (the app table's context). */
  ports: Record<string, Record<string, number>>;
  createCompany(options?: CompanyOptions): Promise<TestCompany>;
  api(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  issuerEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  /** Starts apps/webhook-dispatcher too, with these variables besides the app table's. */
  webhookDispatcherEnv?: Record<string, string>;
  /** Starts the pdf-renderer too (needs Chromium), with these overrides. */
  pdfRendererEnv?: Record<string, string>;
  /** Also start the canceller (the amendments worker), with these variables on top of the app table's. */
  canceller?: boolean;
  cancellerEnv?: Record<string, string>;
}

export async function startPlatform(name: string, options: PlatformOptions = {}): Promise<Platform> {
  const sim = await startSimulator();
  const { context, removeWorkDir } = await platformContext(name, sim);
  const issuerEnv = { ISSUER_CONCURRENCY: '8', AUTHORIZER_READ_TIMEOUT_MS: '3000', ...options.issuerEnv };
  const startIssuer = () => startApp('issuer', context, issuerEnv);
  const startDispatcher = () => startApp('webhook-dispatcher', context, options.webhookDispatcherEnv);
  const cancellerEnv = { AUTHORIZER_READ_TIMEOUT_MS: '3000', ...options.cancellerEnv };
  const startCanceller = () => startApp('canceller', context, cancellerEnv);
  const gatewayUrl = `http://127.0.0.1:${context.ports.gateway.http}`;
  // An app that fails to start must not leave the ones before it running: the caller never gets a Platform to stop.
  const started = await withBuiltApps(() =>
    startAllOrNone(
      async (up) => {
        const issuer = up(await startIssuer());
        const dispatcher = options.webhookDispatcherEnv ? up(await startDispatcher()) : undefined;
        const pdfRenderer = options.pdfRendererEnv ? up(await startApp('pdf-renderer', context, options.pdfRendererEnv)) : undefined;
        const canceller = options.canceller ? up(await startCanceller()) : undefined;
        return { issuer, dispatcher, pdfRenderer, canceller, gateway: await startApp('gateway', context, options.gatewayEnv) };
      },
      async () => {
        await sim.stop();
        removeWorkDir();
      },
    ),
  );
  let issuer = started.issuer;
  let dispatcher = started.dispatcher;
  let canceller = started.canceller;
  const gateway = started.gateway;
  const pdfRenderer = started.pdfRenderer;

  const database = platformDatabase(context.databaseUrl, context.secrets.certificateEncryptionKey);
  const { prisma, certificates, apiKeys } = database;
  const extraApps: AppProcess[] = [];

  return {
    sim,
    prisma,
    certificates,
    gatewayUrl,
    redis: { url: context.redisUrl, prefix: context.redisPrefix },
    ports: context.ports,
    adminToken: context.secrets.adminToken,
    issuer: () => issuer,
    dispatcher: () => dispatcher,
    async restartDispatcher() {
      await dispatcher?.kill('SIGKILL');
      dispatcher = await withBuiltApps(startDispatcher, { build: false });
      return dispatcher;
    },
    gateway: () => gateway,
    pdfRenderer: () => pdfRenderer,
    canceller: () => canceller,
    async restartCanceller() {
      await canceller?.kill('SIGKILL');
      const restarted = await withBuiltApps(startCanceller, { build: false });
      canceller = restarted;
      return restarted;
    },
    async restartIssuer() {
      await issuer.kill('SIGKILL');
      // Under the build lock, so a concurrent build cannot pull a lib's dist from under the starting process.
      issuer = await withBuiltApps(startIssuer, { build: false });
      return issuer;
    },
    async startExtraApp(appName, overrides = {}) {
      const extra = await withBuiltApps(() => startApp(appName, context, overrides));
      extraApps.push(extra);
      return extra;
    },
    async createCompany(companyOptions = {}) {
      const companyId = await createIssuingCompany(
        { prisma, certificates, sim },
        {
          productionQuota: companyOptions.productionQuota === undefined ? null : companyOptions.productionQuota,
          certificate: companyOptions.certificate,
          ...(companyOptions.taxRegime ? { taxRegime: companyOptions.taxRegime } : {}),
        },
      );
      database.created(companyId);
      const homologation = await apiKeys.create({ companyId, name: 'e2e', environment: 'homologation', context: 'api' });
      const production = await apiKeys.create({ companyId, name: 'e2e', environment: 'production', context: 'api' });
      return { id: companyId, homologationKey: homologation.secret, productionKey: production.secret };
    },
    async api(method, path, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      if (requestOptions.key) headers.authorization = `Bearer ${requestOptions.key}`;
      if (requestOptions.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers,
        ...(requestOptions.body !== undefined ? { body: JSON.stringify(requestOptions.body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
    },
    async stop() {
      for (const extra of extraApps) await extra.kill('SIGTERM');
      await gateway.kill('SIGTERM');
      await issuer.kill('SIGTERM');
      await dispatcher?.kill('SIGTERM');
      await pdfRenderer?.kill('SIGTERM');
      await canceller?.kill('SIGTERM');
      await database.close();
      // Benches do not go through tools/test/run-tests.mjs, whose sweep of the test run's prefix covers the suites: a
      // finished run leaves nothing behind. Redis away at the end of a run: nothing to forget that it could reach.
      await deleteRedisKeys(context.redisUrl, context.redisPrefix).catch(() => undefined);
      await sim.stop();
      removeWorkDir();
    },
  };
}
