import { bullJobOptions, jobOptionsFor } from './job-options.js';
import { type Job, JOB_DEFINITIONS, jobIdOf, parseJobPayload } from './job-payloads.js';
import type { QueueName } from './queue-names.js';

/** What enqueueing needs from a BullMQ Queue (structural, so callers pass their own Queue instance). */
export interface EnqueueTarget {
  add(name: string, data: unknown, options: { jobId: string; delay?: number } & ReturnType<typeof bullJobOptions>): Promise<unknown>;
}

/** Queue instances by name; only the queues a process produces to need to be present. */
export type JobQueues = Partial<Record<QueueName, EnqueueTarget>>;

/** Each queue's options, read from the environment once (a malformed override fails the first enqueue). */
const optionsByQueue = new Map<QueueName, ReturnType<typeof bullJobOptions>>();

function queueOptions(queue: QueueName): ReturnType<typeof bullJobOptions> {
  let options = optionsByQueue.get(queue);
  if (!options) {
    options = bullJobOptions(jobOptionsFor(queue));
    optionsByQueue.set(queue, options);
  }
  return options;
}

/**
 * Adds a job to its queue with jobId = business id (a duplicate is a no-op), now or after `delayMs`. The payload is validated first, so a
 * bad producer fails here and not in a worker. Retry options come from the queue's defaults (see jobOptionsFor).
 */
export async function enqueueJob(queues: JobQueues, job: Job, options: { delayMs?: number } = {}): Promise<void> {
  const queueName = JOB_DEFINITIONS[job.name].queue;
  const queue = queues[queueName];
  if (!queue) throw new Error(`no queue "${queueName}" is open in this process for job "${job.name}"`);
  parseJobPayload(job.name, job.data);
  const delay = options.delayMs !== undefined && options.delayMs > 0 ? { delay: Math.round(options.delayMs) } : {};
  await queue.add(job.name, job.data, { jobId: jobIdOf(job), ...queueOptions(queueName), ...delay });
}
