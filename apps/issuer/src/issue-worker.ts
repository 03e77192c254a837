// The BullMQ worker of the issuance queue: a table of handlers checked at startup (one per job name), each job's
// payload validated before its handler runs, and the use case's answer turned into BullMQ's language: a retry is a
// thrown RetryLaterError (the queue's exponential backoff applies), anything final completes the job. The end of
// every job is also published on the queue's outcome channel, for the gateway waiting to answer (job-outcomes.ts).
import { type IssueDeps, issueInvoice, RetryLaterError } from '@talao/issuance';
import type { Logger } from '@talao/observability';
import {
  assertHandlersCover, isJobName, type JobHandlers, jobOutcomeChannel, parseJobPayload, publishJobOutcome, QUEUE_NAMES,
} from '@talao/queue-contracts';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

export function issuanceHandlers(deps: IssueDeps): JobHandlers {
  return [
    {
      name: 'issue',
      handle: async (data, attempt) => {
        const result = await issueInvoice(deps, data.invoiceId, { finalAttempt: attempt.final });
        if (result.kind === 'retry') throw new RetryLaterError(result.reason);
        return result;
      },
    },
  ];
}

export interface IssueWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  logger: Logger;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export function createIssueWorker(handlers: JobHandlers, options: IssueWorkerOptions): Worker {
  assertHandlersCover(QUEUE_NAMES.issuance, handlers);
  const byName = new Map(handlers.map((h) => [h.name, h]));
  const outcomes = jobOutcomeChannel(options.prefix, QUEUE_NAMES.issuance);
  const publishError = (error: Error) => options.logger.warn({ error: error.message }, 'job outcome not published');
  const worker = new Worker(
    QUEUE_NAMES.issuance,
    async (job: Job) => {
      const jobId = job.id ?? '';
      try {
        if (!isJobName(job.name)) throw new Error(`unknown job name "${job.name}"`);
        const handler = byName.get(job.name)!;
        const data = parseJobPayload(job.name, job.data);
        const attempts = job.opts.attempts ?? 1;
        const attempt = { number: job.attemptsMade + 1, final: job.attemptsMade + 1 >= attempts };
        const returnvalue = await handler.handle(data, attempt);
        // Published before BullMQ marks the job completed: the handler's final statement has committed, which is all
        // a waiter needs, and it hears the outcome one Redis round trip sooner.
        publishJobOutcome(options.connection, outcomes, { jobId, returnvalue }, publishError);
        return returnvalue;
      } catch (error) {
        publishJobOutcome(options.connection, outcomes, { jobId, failed: true }, publishError);
        throw error;
      }
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      // A worker killed mid-job leaves the job active; after the lock expires another worker takes it again. Up to
      // 5 such recoveries before BullMQ fails it (the sweeper still re-drives the invoice after that).
      maxStalledCount: 5,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
    },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const level = error instanceof RetryLaterError ? 'info' : 'error';
    options.logger[level]({ jobId: job.id, attempt: job.attemptsMade, error: error.message }, error instanceof RetryLaterError ? 'issue job will retry' : 'issue job failed');
  });
  worker.on('error', (error) => options.logger.error({ error: error.message }, 'issue worker error'));
  return worker;
}
