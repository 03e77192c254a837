// The one custom transport of the worker apps: a BullMQ Worker on the app's queue, each job routed by its name to
// the handler bound with @JobHandler. Per job: the payload parsed against its schema (a job written by another
// release fails loudly), the handler called through Nest's proxy (no interceptors, pipes or guards are registered,
// so that is a few function calls), and the end of the job published on the queue's outcome channel — one PUBLISH,
// the only Redis command added to what BullMQ itself sends (left out for a queue nobody waits on: publishOutcomes).
// A retry is a thrown error (the queue's backoff applies).
import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import { type Logger, queueJobProcessing, queueJobWait, queueTelemetry, secondsSince } from '@talao/observability';
import {
  type JobName,
  jobOutcomeChannel,
  type JobOutcomeMessage,
  parseJobPayload,
  publishJobOutcome,
  type QueueName,
  RetryLaterError,
} from '@talao/queue-contracts';
import { type Job, Worker, type WorkerListener } from 'bullmq';
import type { Redis } from 'ioredis';
import { isObservable, lastValueFrom } from 'rxjs';
import { assertHandlersCover } from './handler-check.js';
import { BULLMQ_TRANSPORT, JobContext } from './job-handler.js';

export interface BullMqTransportOptions {
  queue: QueueName;
  /** Shared with the app's queue; BullMQ duplicates it for the blocking commands. */
  connection: Redis;
  /** The queue's key prefix (queueKeyPrefix of REDIS_PREFIX); the outcome channel lives under it too. */
  prefix: string;
  concurrency: number;
  /** A killed worker's jobs return to the queue after about this long. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  /**
   * Publish each job's end on the queue's outcome channel (default true). Off for a queue whose outcomes no one
   * waits for: one PUBLISH per job, and Redis's work for it, saved.
   */
  publishOutcomes?: boolean;
  logger: Logger;
}

type WorkerEvents = { [E in keyof WorkerListener]: WorkerListener[E] };

export class BullMqTransport extends Server<WorkerEvents> implements CustomTransportStrategy {
  override readonly transportId = BULLMQ_TRANSPORT;
  /** One name per handler registration: Nest keeps only the last of two with one name, the check must see both. */
  private readonly registered: string[] = [];
  private readonly byName = new Map<string, MessageHandler>();
  private readonly pendingListeners: Array<[keyof WorkerEvents, WorkerEvents[keyof WorkerEvents]]> = [];
  private worker: Worker | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: BullMqTransportOptions) {
    super();
  }

  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler?: boolean, extras?: Record<string, unknown>): void {
    this.registered.push(this.normalizePattern(pattern as string));
    super.addHandler(pattern, callback, isEventHandler, extras);
  }

  listen(callback: (error?: unknown) => void): void {
    const { queue, connection, prefix, logger } = this.options;
    try {
      assertHandlersCover(queue, this.registered);
    } catch (error) {
      callback(error);
      return;
    }
    for (const name of this.registered) this.byName.set(name, this.getHandlerByPattern(name)!);
    const channel = jobOutcomeChannel(prefix, queue);
    const publishError = (error: Error) => logger.warn({ error: error.message }, 'job outcome not published');
    const publish =
      this.options.publishOutcomes === false
        ? () => undefined
        : (outcome: JobOutcomeMessage) => publishJobOutcome(connection, channel, outcome, publishError);
    const worker = new Worker(
      queue,
      async (job: Job) => {
        const jobId = job.id ?? '';
        const startNs = process.hrtime.bigint();
        const labels = { queue, job: job.name };
        if (job.attemptsMade === 0 && job.processedOn) {
          queueJobWait.observe(labels, Math.max(0, job.processedOn - job.timestamp - (job.opts.delay ?? 0)) / 1000);
        }
        try {
          const returnvalue = await this.handle(job);
          // Published before BullMQ marks the job completed: the handler's final statement has committed, which is
          // all a waiter needs, and it hears the outcome one Redis round trip sooner.
          publish({ jobId, returnvalue });
          queueJobProcessing.observe({ ...labels, outcome: 'completed' }, secondsSince(startNs));
          return returnvalue;
        } catch (error) {
          publish({ jobId, failed: true });
          queueJobProcessing.observe({ ...labels, outcome: error instanceof RetryLaterError ? 'retry' : 'failed' }, secondsSince(startNs));
          throw error;
        }
      },
      {
        connection,
        prefix,
        concurrency: this.options.concurrency,
        // A worker killed mid-job leaves the job active; after the lock expires another worker takes it again. Up to
        // 5 such recoveries before BullMQ fails it (a sweeper re-drives the work from the database after that).
        maxStalledCount: 5,
        lockDuration: this.options.lockDurationMs,
        stalledInterval: this.options.stalledIntervalMs,
        // Tracing on: each job runs in a span continuing the trace of whoever enqueued it (undefined when off).
        telemetry: queueTelemetry(),
      },
    );
    worker.on('failed', (job, error) => {
      if (!job) return;
      const retry = error instanceof RetryLaterError;
      logger[retry ? 'info' : 'error'](
        { jobId: job.id, attempt: job.attemptsMade, error: error.message },
        `${job.name} job ${retry ? 'will retry' : 'failed'}`,
      );
    });
    worker.on('error', (error) => logger.error({ error: error.message }, `${queue} worker error`));
    for (const [event, listener] of this.pendingListeners.splice(0)) worker.on(event, listener);
    this.worker = worker;
    callback();
  }

  private async handle(job: Job): Promise<unknown> {
    const handler = this.byName.get(job.name);
    if (!handler) throw new Error(`no handler for job "${job.name}" on queue "${this.options.queue}"`);
    const data = parseJobPayload(job.name as JobName, job.data);
    const result: unknown = await handler(data, new JobContext(job));
    // A handler's error comes back from Nest's proxy as an erroring Observable (RethrowJobErrors keeps the error).
    return isObservable(result) ? lastValueFrom(result) : result;
  }

  /** Stops taking jobs and resolves once the active ones have ended (their outcomes recorded and published). */
  close(): Promise<void> {
    this.closing ??= this.worker?.close() ?? Promise.resolve();
    return this.closing;
  }

  isRunning(): boolean {
    return this.worker?.isRunning() ?? false;
  }

  on<E extends keyof WorkerEvents>(event: E, listener: WorkerEvents[E]): void {
    if (this.worker) this.worker.on(event, listener);
    else this.pendingListeners.push([event, listener]);
  }

  unwrap<T>(): T {
    if (!this.worker) throw new Error('the BullMQ worker exists once the microservice listens');
    return this.worker as T;
  }
}
