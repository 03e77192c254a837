// The apps, one entry each, started in this order by the one launcher (apps.mjs): `npm start`, the end-to-end tests
// (e2e/issuance/support/platform.ts) and the benchmarks all take each app's environment from here. An entry whose
// folder is not in this checkout is skipped by `npm start`, so a line can land before its app. Adding a worker is
// adding an entry here (and its docker-compose.yml service and k8s/ manifests; the one Dockerfile builds any app;
// tools/deploy/*.spec.ts check them all).
//   name        the folder under apps/ and the log prefix
//   entry       the built entry point, relative to the repository root
//   ports       preferred TCP ports by role (`npm start` takes a free port instead when one is busy)
//   env(ctx)    the app's environment from what the launcher resolved. ctx:
//                 databaseUrl, redisUrl, redisPrefix, logLevel? (LOG_LEVEL, else each app's default)
//                 secrets: { adminToken, certificateEncryptionKey, simulatorControlToken }
//                 ports: every app's, by name and role
//                 authorizers?: { homologation?, production?, caBundleFile? } — base URLs replacing the real SEFAZ and
//                   NFS-e hosts (the simulator) and the CA their TLS certificates chain to
//                 technicalResponsible: { cnpj, contact, email, phone } — infRespTec; no app has a default for it
//                 simulator?: { dataDir, ca?: { certificatePem, privateKeyPem } } — the simulator's own settings
//   nodeArgs    optional: node options before the entry (INSTRUMENTED: the tracing entry, a no-op unless OTEL_* asks)
//   readiness(ctx)  the URL (and headers) answering 200 once the app is ready
//   unavailable()   optional: a one-line reason (and how to fix it) when the app cannot run on this machine; `npm start`
//                   prints it and starts the others

import { accessSync, constants } from 'node:fs';

/**
 * Every platform app starts with the tracing entry of @talao/observability loaded first (`node --import`): it starts
 * OpenTelemetry when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT) and does nothing otherwise. Each
 * Dockerfile's CMD says the same: `node --enable-source-maps --import @talao/observability/instrument apps/<name>/dist/main.js`.
 */
export const INSTRUMENTED = ['--import', '@talao/observability/instrument'];

/**
 * The pdf-renderer's V8 young generation, capped at 2 MB per semi-space (the default grows to 16): what it allocates
 * per render is short-lived (the PDF arrives as a base64 string over the DevTools pipe), and a large young generation
 * only holds that garbage longer — measured, the Node process's peak PSS 251 → 208 MB at the same throughput
 * (libs/rendering/README.md "Performance"). `--optimize-for-size`: V8 collects its old generation sooner (the process
 * under bench:pdf's load 150 → 140 MB, for somewhat more time in the collector). The Dockerfile's CMD and the app's
 * own `start` script pass the same flags.
 */
export const PDF_RENDERER_NODE_FLAGS = ['--max-semi-space-size=2', '--optimize-for-size'];

/**
 * glibc's malloc gives each thread that allocates an arena of its own (up to eight per core), and the pages an arena
 * freed stay resident in it; the renderer's Node runs V8's and libuv's threads beside the main one. Two arenas:
 * measured under bench:pdf's 60-item load, the Node process at the end 125–127 MB against 133–136 with glibc's
 * default, for no CPU it could see. (Chromium allocates with its own PartitionAlloc: the variable does not touch it.)
 * The Dockerfile's CMD, the Kubernetes manifest and the app's own `start` script set the same.
 */
export const PDF_RENDERER_ENV = { MALLOC_ARENA_MAX: '2' };

/** What both the gateway (consults, document planning) and the issuer (transmissions) are told of the authorizers. */
function authorizerEnv(ctx) {
  return {
    ...(ctx.authorizers?.homologation && { AUTHORIZER_BASE_URL_HOMOLOGATION: ctx.authorizers.homologation }),
    ...(ctx.authorizers?.production && { AUTHORIZER_BASE_URL_PRODUCTION: ctx.authorizers.production }),
    ...(ctx.authorizers?.caBundleFile && { AUTHORIZER_CA_BUNDLE_FILE: ctx.authorizers.caBundleFile }),
    TECHNICAL_RESPONSIBLE_CNPJ: ctx.technicalResponsible.cnpj,
    TECHNICAL_RESPONSIBLE_CONTACT: ctx.technicalResponsible.contact,
    TECHNICAL_RESPONSIBLE_EMAIL: ctx.technicalResponsible.email,
    TECHNICAL_RESPONSIBLE_PHONE: ctx.technicalResponsible.phone,
  };
}

/**
 * Debian's Chromium executables in the order libs/rendering's resolveChromiumPath looks for them (its
 * DEBIAN_CHROMIUM_PATHS: the launcher runs before anything is built, so it cannot import it; app-table.spec.ts checks
 * the two agree).
 */
export const DEBIAN_CHROMIUM_PATHS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium'];

/** Whether a Chromium is there to run, as the renderer resolves it: CHROMIUM_PATH, else the first of Debian's. */
function chromiumMissing() {
  const executable = (path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : DEBIAN_CHROMIUM_PATHS;
  if (candidates.some(executable)) return undefined;
  return `Chromium not found at ${candidates[0]}: install it (Debian: apt-get install chromium-headless-shell fonts-liberation) or set CHROMIUM_PATH to its executable`;
}

/** The variables every app on PostgreSQL and Redis reads (the fragments of @talao/config). */
function platformEnv(ctx) {
  return {
    DATABASE_URL: ctx.databaseUrl,
    REDIS_URL: ctx.redisUrl,
    REDIS_PREFIX: ctx.redisPrefix,
    CERTIFICATE_ENCRYPTION_KEY: ctx.secrets.certificateEncryptionKey,
    ...(ctx.logLevel && { LOG_LEVEL: ctx.logLevel }),
  };
}

/**
 * A worker's entry: instrumented, on PostgreSQL and Redis, ready when its health port (`<healthVariable>_PORT`, on
 * the loopback interface by `<healthVariable>_HOST`) answers /readyz. `env` adds the worker's own variables.
 */
function worker({ name, healthVariable, healthPort, env = () => ({}), nodeArgs = INSTRUMENTED, unavailable }) {
  return {
    name,
    entry: `apps/${name}/dist/main.js`,
    nodeArgs,
    ports: { health: healthPort },
    env: (ctx) => ({
      ...platformEnv(ctx),
      [`${healthVariable}_PORT`]: String(ctx.ports[name].health),
      [`${healthVariable}_HOST`]: '127.0.0.1',
      ...env(ctx),
    }),
    readiness: (ctx) => ({ url: `http://127.0.0.1:${ctx.ports[name].health}/readyz` }),
    ...(unavailable && { unavailable }),
  };
}

/** @type {Array<{ name: string, entry: string, nodeArgs?: string[], ports: Record<string, number>, env: (ctx: any) => Record<string, string>,
 *   readiness: (ctx: any) => { url: string, headers?: Record<string, string> }, unavailable?: () => string | undefined }>} */
export const APPS = [
  {
    // Never deployed to production: it stands in for SEFAZ and the NFS-e national environment, trusting the local
    // test CA that also issues the demo company's certificate.
    name: 'authorizer-sim',
    entry: 'apps/authorizer-sim/dist/main.js',
    ports: { https: 8443, control: 8444 },
    env: (ctx) => ({
      SIM_PORT: String(ctx.ports['authorizer-sim'].https),
      SIM_CONTROL_PORT: String(ctx.ports['authorizer-sim'].control),
      SIM_HOST: '127.0.0.1',
      SIM_CONTROL_HOST: '127.0.0.1',
      SIM_HOSTNAMES: 'localhost,127.0.0.1',
      SIM_CONTROL_TOKEN: ctx.secrets.simulatorControlToken,
      SIM_DATA_DIR: ctx.simulator.dataDir,
      ...(ctx.simulator.ca && {
        SIM_CA_CERTIFICATE_PEM: ctx.simulator.ca.certificatePem,
        SIM_CA_PRIVATE_KEY_PEM: ctx.simulator.ca.privateKeyPem,
      }),
    }),
    readiness: (ctx) => ({
      url: `http://127.0.0.1:${ctx.ports['authorizer-sim'].control}/_control/health`,
      headers: { authorization: `Bearer ${ctx.secrets.simulatorControlToken}` },
    }),
  },
  {
    name: 'gateway',
    entry: 'apps/gateway/dist/main.js',
    nodeArgs: INSTRUMENTED,
    ports: { http: 3000 },
    env: (ctx) => ({
      ...platformEnv(ctx),
      PORT: String(ctx.ports.gateway.http),
      ADMIN_TOKEN: ctx.secrets.adminToken,
      // Local runs listen on the loopback interface only: the admin token is printed on the terminal.
      // (GATEWAY_HOST=0.0.0.0 to reach it from other machines; not HOST, which some shells set to the machine name.)
      HOST: process.env.GATEWAY_HOST ?? '127.0.0.1',
      PUBLIC_BASE_URL: `http://localhost:${ctx.ports.gateway.http}`,
      // The OAuth authorization server of the MCP interface (at {PUBLIC_BASE_URL}/oauth) when the MCP app runs too.
      ...(ctx.ports.mcp && { MCP_PUBLIC_URL: `http://localhost:${ctx.ports.mcp.http}/mcp` }),
      // Local runs and tests only: a developer registers http://localhost receivers (docs/architecture.md "Webhooks").
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      // The gateway consults the authorizer (GET /invoices/{access_key}) and plans documents at creation.
      ...authorizerEnv(ctx),
    }),
    readiness: (ctx) => ({ url: `http://127.0.0.1:${ctx.ports.gateway.http}/readyz` }),
  },
  // Consumes `issue` jobs and transmits to the authorizers (the simulator under `npm start` and in tests).
  worker({ name: 'issuer', healthVariable: 'ISSUER_HEALTH', healthPort: 3100, env: authorizerEnv }),
  // Relays the outbox into deliveries and sends them (signed, retried). Loopback receivers allowed, as for the gateway.
  worker({
    name: 'webhook-dispatcher',
    healthVariable: 'WEBHOOK_DISPATCHER_HEALTH',
    healthPort: 3200,
    env: () => ({ WEBHOOK_ALLOW_LOOPBACK: 'true' }),
  }),
  // Renders DANFE / DANFSe (`render-pdf` jobs) on Debian's Chromium; `npm start` skips it, saying so, without Chromium.
  worker({
    name: 'pdf-renderer',
    healthVariable: 'PDF_RENDERER_HEALTH',
    healthPort: 3300,
    nodeArgs: [...PDF_RENDERER_NODE_FLAGS, ...INSTRUMENTED],
    env: () => ({ ...PDF_RENDERER_ENV, ...(process.env.CHROMIUM_PATH && { CHROMIUM_PATH: process.env.CHROMIUM_PATH }) }),
    unavailable: chromiumMissing,
  }),
  // Consumes `amend` jobs (cancellations, correction letters) and transmits them to the authorizers.
  worker({ name: 'canceller', healthVariable: 'CANCELLER_HEALTH', healthPort: 3110, env: authorizerEnv }),
  // Collects received invoices (distribution sync) and keeps one job scheduler per company with a certificate.
  worker({ name: 'received-sync', healthVariable: 'RECEIVED_SYNC_HEALTH', healthPort: 3120, env: authorizerEnv }),
  {
    // The agent-tool (MCP) interface: streamable HTTP at /mcp. It reaches the platform only through the gateway's REST
    // API, with each request's own Authorization header; no database, no queues, no credential of its own.
    name: 'mcp',
    entry: 'apps/mcp/dist/main.js',
    nodeArgs: INSTRUMENTED,
    ports: { http: 3400 },
    env: (ctx) => ({
      MCP_PORT: String(ctx.ports.mcp.http),
      MCP_HOST: process.env.MCP_HOST ?? '127.0.0.1',
      GATEWAY_URL: `http://127.0.0.1:${ctx.ports.gateway.http}`,
      // OAuth: the resource this server is (the `aud` of its tokens) and the gateway's authorization server.
      MCP_PUBLIC_URL: `http://localhost:${ctx.ports.mcp.http}/mcp`,
      OAUTH_ISSUER: `http://localhost:${ctx.ports.gateway.http}/oauth`,
      ...(ctx.logLevel && { LOG_LEVEL: ctx.logLevel }),
    }),
    readiness: (ctx) => ({ url: `http://127.0.0.1:${ctx.ports.mcp.http}/readyz` }),
  },
];

/** The table's entry for `name` (throws for an app the table does not know). */
export function appNamed(name) {
  const app = APPS.find((candidate) => candidate.name === name);
  if (!app) throw new Error(`no app "${name}" in tools/start/app-table.mjs`);
  return app;
}
