// The issuer process: config validated at boot, the issue worker, the sweeper on an interval, health endpoints, and a
// graceful shutdown (SIGTERM/SIGINT: stop taking jobs, let active ones finish, close connections).
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@talao/config';
import { createLogger } from '@talao/observability';
import { createHealthServer } from './health-server.js';
import { loadIssuerConfig } from './issuer-config.js';
import { IssuerResources } from './issuer-resources.js';
import { createIssueWorker, issuanceHandlers } from './issue-worker.js';
import { startSweeper } from './sweeper-loop.js';

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

async function main(): Promise<void> {
  let config;
  try {
    config = loadIssuerConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG: a supervisor should not restart in a loop on a configuration error
    }
    throw error;
  }
  const logger = createLogger({ name: 'issuer', level: config.LOG_LEVEL });
  const resources = new IssuerResources(config, logger);
  const worker = createIssueWorker(issuanceHandlers(resources.issueDeps), {
    connection: resources.redis,
    prefix: resources.queuePrefix,
    concurrency: config.ISSUER_CONCURRENCY,
    lockDurationMs: config.ISSUER_JOB_LOCK_MS,
    stalledIntervalMs: config.ISSUER_STALLED_CHECK_MS,
    logger,
  });
  const sweeper = startSweeper(
    resources.sweepDeps,
    { intervalMs: config.SWEEPER_INTERVAL_MS, staleAfterMs: config.SWEEPER_STALE_AFTER_MS, batchSize: config.SWEEPER_BATCH_SIZE },
    logger,
  );
  const health = createHealthServer(async () => {
    const [database, redis] = await Promise.all([
      withTimeout(resources.prisma.$queryRaw`SELECT 1`, 2_000).then(() => true, () => false),
      withTimeout(resources.redis.ping(), 2_000).then(() => true, () => false),
    ]);
    return { database, redis, worker: worker.isRunning() };
  });
  health.listen(config.ISSUER_HEALTH_PORT, config.ISSUER_HEALTH_HOST, () => {
    const port = (health.address() as AddressInfo).port;
    logger.info({ healthPort: port, concurrency: config.ISSUER_CONCURRENCY, queuePrefix: resources.queuePrefix }, 'issuer ready');
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'issuer stopping');
    await sweeper.stop();
    await worker.close(); // waits for active jobs
    health.close();
    await resources.close();
    logger.info('issuer stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
