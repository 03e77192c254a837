#!/usr/bin/env node
// `npm start`: the whole platform on one machine with no configuration.
//   build → secrets → PostgreSQL → Redis → migrations → apps (ready on /readyz) → demo company and key → summary.
// Everything the launcher starts (apps, embedded PostgreSQL, redis-server) it stops again on Ctrl-C / SIGTERM, or
// when any app dies. Local state lives in .data/ (git-ignored): secrets, embedded database, test CA, demo certificate.
// Environment (all optional): DATABASE_URL, REDIS_URL, REDIS_PREFIX, ADMIN_TOKEN, CERTIFICATE_ENCRYPTION_KEY,
// PORT and GATEWAY_HOST (the gateway's; default 3000 on 127.0.0.1), LOG_FORMAT=json (raw app logs),
// START_SKIP_LOCAL=1 (ignore servers on 127.0.0.1:5432/6379 and use the embedded PostgreSQL and a spawned
// redis-server, as on a machine without them).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS as APP_TABLE } from './app-table.mjs';
import { startApps } from './apps.mjs';
import { buildProjects, linkWorkspacePackages } from './build.mjs';
import { prepareDemoCompany } from './demo-company.mjs';
import { writeLocalEnv } from './local-env.mjs';
import { createLogger } from './log.mjs';
import { applyMigrations } from './migrate.mjs';
import { choosePorts } from './ports.mjs';
import { providePostgres } from './postgres.mjs';
import { provideRedis, RedisUnavailableError } from './redis.mjs';
import { loadSecrets } from './secrets.mjs';
import { AlreadyRunningError, claimCheckout } from './single-instance.mjs';
import { printSummary } from './summary.mjs';
import { loadOrCreateTestCa } from './test-ca.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = path.join(root, '.data');
const log = createLogger('start');
const startedAt = performance.now();
const elapsed = () => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;

/**
 * infRespTec of local runs: the environment's, else a fictitious software house. The apps have no default for it
 * (a real document must never name a made-up company); local documents only ever reach the simulator.
 */
const LOCAL_TECHNICAL_RESPONSIBLE = {
  cnpj: process.env.TECHNICAL_RESPONSIBLE_CNPJ ?? '30294817000180',
  contact: process.env.TECHNICAL_RESPONSIBLE_CONTACT ?? 'Talao local run',
  email: process.env.TECHNICAL_RESPONSIBLE_EMAIL ?? 'dev@talao.example',
  phone: process.env.TECHNICAL_RESPONSIBLE_PHONE ?? '1130000000',
};

/** Stop functions in start order; shutdown runs them newest first (apps, then Redis, then PostgreSQL). */
const stoppers = [];
let shuttingDown = false;

async function shutdown(exitCode, reason) {
  if (shuttingDown) return;
  shuttingDown = true;
  if (reason) log.info(reason);
  for (const stop of stoppers.reverse()) {
    try {
      await stop();
    } catch (error) {
      log.error(`while stopping: ${error.message}`);
    }
  }
  process.exit(exitCode);
}

function onSignal(signal) {
  if (shuttingDown) {
    // A second Ctrl-C: the user wants out now.
    log.warn(`${signal} again; exiting without waiting`);
    process.exit(130);
  }
  void shutdown(0, `${signal} received; stopping everything`);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('SIGHUP', onSignal);

// npm runs the launcher under `sh -c`, which does not pass a SIGTERM on: when whoever started `npm start` is killed
// (a supervisor, a closed terminal), the launcher would run on as an orphan with all its children. It notices that
// its parent changed and stops everything instead.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void shutdown(0, 'the parent process (npm) went away; stopping everything');
}, 1000).unref();

async function main() {
  stoppers.push(claimCheckout(dataDir));
  const present = APP_TABLE.filter((app) => existsSync(path.join(root, 'apps', app.name, 'package.json')));
  const absent = APP_TABLE.filter((app) => !present.includes(app)).map((app) => app.name);
  if (absent.length > 0) log.warn(`not in this checkout, skipped: ${absent.join(', ')}`);
  // An app that cannot run on this machine (the pdf-renderer without Chromium) says why in one line; the rest start.
  const APPS = present.filter((app) => {
    const reason = app.unavailable?.();
    if (reason) log.warn(`${app.name} skipped: ${reason}`);
    return !reason;
  });
  const testCaLib = existsSync(path.join(root, 'libs', 'icp-test-ca', 'package.json'));
  const linked = linkWorkspacePackages(root);
  if (linked.length > 0) log.info(`linked workspace packages missing from node_modules: ${linked.join(', ')}`);

  log.info('building the apps (unchanged projects come from the Nx cache)');
  const projects = [...APPS.map((app) => `@talao/${app.name}`), ...(testCaLib ? ['@talao/icp-test-ca'] : [])];
  log.info(`${await buildProjects({ root, projects, log })} — ${elapsed()}`);

  const secrets = await loadSecrets({ dataDir });
  const tryLocal = process.env.START_SKIP_LOCAL !== '1';
  const [postgresResult, redisResult] = await Promise.allSettled([
    providePostgres({ dataDir, password: secrets.embeddedPostgresPassword, log: createLogger('postgres'), tryLocal }),
    provideRedis({ dataDir, log: createLogger('redis'), tryLocal }),
  ]);
  // Whichever of the two started is stopped again even when the other failed.
  for (const result of [postgresResult, redisResult]) if (result.status === 'fulfilled') stoppers.push(result.value.stop);
  for (const result of [postgresResult, redisResult]) if (result.status === 'rejected') throw result.reason;
  const postgres = /** @type {PromiseFulfilledResult<any>} */ (postgresResult).value;
  const redis = /** @type {PromiseFulfilledResult<any>} */ (redisResult).value;
  log.info(`PostgreSQL: ${postgres.source}; Redis: ${redis.source} — ${elapsed()}`);

  log.info(await applyMigrations({ root, databaseUrl: postgres.url, log: createLogger('migrate') }));

  const ports = await choosePorts(APPS, { log });
  // Created before the apps start: the authorizer simulator must trust the CA that issues the demo certificate.
  let testCa;
  if (testCaLib) testCa = await loadOrCreateTestCa(dataDir);
  else log.warn('libs/icp-test-ca is missing: the demo company gets no certificate');

  const simulatorUrl = ports['authorizer-sim'] && `https://127.0.0.1:${ports['authorizer-sim'].https}`;
  const context = {
    databaseUrl: postgres.url,
    redisUrl: redis.url,
    redisPrefix: process.env.REDIS_PREFIX ?? 'talao:',
    secrets,
    ports,
    // Homologation goes to the simulator, which trusts the local test CA (production keeps the real hosts).
    authorizers: { ...(simulatorUrl && { homologation: simulatorUrl }), ...(testCa && { caBundleFile: testCa.paths.certificate }) },
    technicalResponsible: LOCAL_TECHNICAL_RESPONSIBLE,
    simulator: {
      dataDir: path.join(dataDir, 'authorizer-sim'),
      ...(testCa && { ca: { certificatePem: testCa.ca.caCertificatePem, privateKeyPem: testCa.ca.caPrivateKeyPem } }),
    },
  };
  log.info(`starting ${APPS.map((app) => app.name).join(', ')}`);
  const apps = startApps({
    root,
    apps: APPS,
    envFor: (app) => app.env(context),
    readinessFor: (app) => app.readiness(context),
    onUnexpectedExit: (name, how) => void shutdown(1, `${name} exited unexpectedly (${how}); stopping everything`),
  });
  stoppers.push(apps.stopAll);
  await apps.ready;
  log.info(`apps ready — ${elapsed()}`);

  const gatewayUrl = `http://localhost:${ports.gateway.http}`;
  // A failed demo setup leaves the platform running (the admin API still works) and says why in the summary.
  const demo = await prepareDemoCompany({
    adminUrl: `http://127.0.0.1:${ports.gateway.http}`,
    adminToken: secrets.adminToken,
    databaseUrl: postgres.url,
    dataDir,
    ca: testCa?.ca,
    log,
  }).catch((error) => ({ error: error.message }));
  const localEnv = await writeLocalEnv({
    dataDir,
    values: {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: context.redisPrefix,
      ADMIN_TOKEN: secrets.adminToken,
      CERTIFICATE_ENCRYPTION_KEY: secrets.certificateEncryptionKey,
      TALAO_URL: gatewayUrl,
      ...(ports['authorizer-sim'] && {
        SIM_BASE_URL: `https://127.0.0.1:${ports['authorizer-sim'].https}`,
        SIM_CONTROL_URL: `http://127.0.0.1:${ports['authorizer-sim'].control}`,
        SIM_CONTROL_TOKEN: secrets.simulatorControlToken,
      }),
      ...(testCa && { TEST_CA_CERTIFICATE_FILE: testCa.paths.certificate }),
      ...(demo.apiKey && { TALAO_API_KEY: demo.apiKey }),
    },
  });
  printSummary({ gatewayUrl, ports, secrets, demo, postgres, redis, dataDir, localEnv, readyAfter: elapsed() });
}

main().catch((error) => {
  // A dying app has already been reported and the shutdown is under way.
  if (shuttingDown) return;
  // Expected failures (no Redis, a failed build or migration) are explained by their message; anything else gets
  // its stack, since it is a bug in the launcher.
  const expected =
    error instanceof RedisUnavailableError ||
    error instanceof AlreadyRunningError ||
    /failed|did not|not ready|answered|exited/.test(error.message);
  log.error(expected ? error.message : `npm start failed: ${error.stack ?? error.message}`);
  void shutdown(1);
});
