// A worker app from its definition: config validated at boot, the app's dependencies, a NestJS microservice whose
// one transport is BullMQ on the app's queue, the health port, periodic tasks, and a graceful shutdown on SIGTERM,
// SIGINT or SIGHUP (periodic tasks stop, the jobs in progress finish, connections close, exit 0).
// Boot exit codes: 78 (EX_CONFIG) for a bad environment, so a supervisor does not restart in a loop; 1 otherwise.
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@talao/config';
import { collectProcessMetrics, createLogger, type Logger, NestPinoLogger, queueTelemetry, watchQueueDepth } from '@talao/observability';
import { bullJobOptions, jobOptionsFor, type QueueName, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BullMqTransport } from './bullmq-transport.js';
import { createHealthServer, runChecks } from './health-server.js';
import type { PeriodicTask } from './periodic-task.js';
import { RethrowJobErrors } from './rethrow-job-errors.filter.js';
import { WorkerLifecycle, WorkerModule } from './worker-module.js';

/** What the runtime reads of an app's config (the fragments redisConfig, loggingConfig and workerConfig). */
export interface WorkerRuntimeConfig {
  redis: { url: string; prefix: string };
  logging: { level: string };
  worker: { concurrency: number; jobLockMs: number; stalledCheckMs: number; health: { port: number; host: string } };
}

export interface WorkerDependencies {
  /** Readiness besides Redis and the worker: each resolves when its dependency answers (false or a rejection: not). */
  readonly checks?: Readonly<Record<string, () => Promise<unknown>>>;
  close(): Promise<void>;
}

export interface WorkerContext {
  /** The app's own queue (a sweeper re-drives work into it), on the runtime's Redis connection. */
  queue: Queue;
  logger: Logger;
}

export interface WorkerAppDefinition<C extends WorkerRuntimeConfig, D extends WorkerDependencies> {
  /** The logger's name and the subject of the lifecycle log lines ("issuer ready", "issuer stopped"). */
  name: string;
  queue: QueueName;
  /** Reads and validates the environment; throws ConfigError. */
  loadConfig(): C;
  dependencies(config: C, context: WorkerContext): D;
  /** Nest controllers whose @JobHandler methods handle every job of the queue, each exactly once. */
  handlers: Type[];
  periodicTasks?(dependencies: D, config: C): PeriodicTask[];
  /**
   * Publish every job's end on the queue's outcome channel (default true: a request may be waiting for it). False for
   * a queue whose outcomes nothing waits on, saving a Redis command per job.
   */
  publishJobOutcomes?: boolean;
}

export interface RunningWorkerApp {
  readonly app: INestMicroservice;
  readonly healthUrl: string;
  /** Stops as a signal would: no new jobs, the active ones finish, everything closes. */
  close(): Promise<void>;
}

const READINESS_TIMEOUT_MS = 2_000;

export async function startWorkerApp<C extends WorkerRuntimeConfig, D extends WorkerDependencies>(
  definition: WorkerAppDefinition<C, D>,
  options: { logger?: Logger } = {},
): Promise<RunningWorkerApp> {
  const config = definition.loadConfig();
  const logger = options.logger ?? createLogger({ name: definition.name, level: config.logging.level });
  // maxRetriesPerRequest null: BullMQ's blocking commands must wait through a Redis restart, not fail.
  const connection = new Redis(config.redis.url, { maxRetriesPerRequest: null });
  connection.on('error', (error: Error) => logger.warn({ error: error.message }, 'redis connection error'));
  const prefix = queueKeyPrefix(config.redis.prefix);
  const queue = new Queue(definition.queue, {
    connection,
    prefix,
    defaultJobOptions: bullJobOptions(jobOptionsFor(definition.queue)),
    telemetry: queueTelemetry(),
  });
  collectProcessMetrics();
  const unwatchQueue = watchQueueDepth(queue);
  const releaseConnection = async () => {
    unwatchQueue();
    await queue.close();
    connection.disconnect();
  };
  let dependencies: D;
  try {
    dependencies = definition.dependencies(config, { queue, logger });
  } catch (error) {
    await releaseConnection();
    throw error;
  }
  const transport = new BullMqTransport({
    queue: definition.queue,
    connection,
    prefix,
    logger,
    concurrency: config.worker.concurrency,
    lockDurationMs: config.worker.jobLockMs,
    stalledIntervalMs: config.worker.stalledCheckMs,
    publishOutcomes: definition.publishJobOutcomes ?? true,
  });
  const checks = { ...dependencies.checks, redis: () => connection.ping(), worker: async () => transport.isRunning() };
  const health = createHealthServer(() => runChecks(checks, READINESS_TIMEOUT_MS));
  const lifecycle = new WorkerLifecycle(definition.name, logger, definition.periodicTasks?.(dependencies, config) ?? [], async () => {
    health.closeAllConnections();
    health.close();
    await dependencies.close();
    await releaseConnection();
  });
  let app: INestMicroservice;
  try {
    app = await NestFactory.createMicroservice(WorkerModule.forRoot({ handlers: definition.handlers, dependencies, lifecycle }), {
      strategy: transport,
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
  } catch (error) {
    await lifecycle.onApplicationShutdown();
    throw error;
  }
  app.useGlobalFilters(new RethrowJobErrors());
  try {
    await app.listen();
    await new Promise<void>((resolve, reject) => {
      health.once('error', reject);
      health.listen(config.worker.health.port, config.worker.health.host, resolve);
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  const { port } = health.address() as AddressInfo;
  logger.info({ healthPort: port, concurrency: config.worker.concurrency, queuePrefix: prefix }, `${definition.name} ready`);
  return { app, healthUrl: `http://${config.worker.health.host}:${port}`, close: () => app.close() };
}

/** The whole of a worker's main.ts: starts the app, or exits 78 (bad environment) or 1 (anything else at boot). */
export function runWorkerApp<C extends WorkerRuntimeConfig, D extends WorkerDependencies>(definition: WorkerAppDefinition<C, D>): void {
  startWorkerApp(definition).then(
    ({ app }) => {
      // Named signals only: Nest's default list includes SIGUSR2, which operators use for heap snapshots.
      app.enableShutdownHooks(['SIGTERM', 'SIGINT', 'SIGHUP'], { useProcessExit: true });
    },
    (error: unknown) => {
      if (error instanceof ConfigError) {
        console.error(error.message);
        process.exit(78);
      }
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}
