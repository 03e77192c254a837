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

/** A queue that can also look a job up by its id, to see whether an earlier job of the same business id holds it. */
export interface RequeueTarget extends EnqueueTarget {
  getJob(jobId: string): Promise<{ getState(): Promise<string>; remove(): Promise<void> } | undefined | null>;
}

/** BullMQ states of a job that will still run, or runs now. */
const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

/**
 * Enqueues the job of a row that still needs work. BullMQ keeps an ended job (failed after its tries, or completed)
 * under its id, and adding a job with a held id is a no-op: so an ended job is removed first. A live job is left to
 * run and nothing is added. `fresh`: this request created the row, so no job can hold its id (one round trip less).
 * Says what it found: `added` (no job held the id), `replaced` (an ended one did) or `live`.
 */
export async function enqueueReplacingEnded(
  queue: RequeueTarget,
  job: Job,
  options: { fresh?: boolean } = {},
): Promise<'added' | 'replaced' | 'live'> {
  const earlier = options.fresh ? null : await queue.getJob(jobIdOf(job));
  if (earlier && LIVE_STATES.has(await earlier.getState())) return 'live';
  await earlier?.remove();
  await enqueueJob({ [JOB_DEFINITIONS[job.name].queue]: queue }, job);
  return earlier ? 'replaced' : 'added';
}
