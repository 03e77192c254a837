// Enqueues many `deliver-webhook` jobs at once (the relay's fan-out, the sweep's re-drives): on a BullMQ Queue one
// addBulk, a single MULTI to Redis instead of a command and a reply per job. Each job keeps what enqueueJob gives it:
// a validated payload, jobId = delivery and attempt (a duplicate is a no-op), the webhooks queue's retry options.
import {
  bullJobOptions,
  enqueueJob,
  type JobPayload,
  type JobQueues,
  jobIdOf,
  jobOptionsFor,
  parseJobPayload,
  QUEUE_NAMES,
} from '@talao/queue-contracts';

interface BulkTarget {
  addBulk(jobs: Array<{ name: string; data: unknown; opts: Record<string, unknown> }>): Promise<unknown>;
}

const hasAddBulk = (target: unknown): target is BulkTarget => typeof (target as Partial<BulkTarget>).addBulk === 'function';

let webhookJobOptions: ReturnType<typeof bullJobOptions> | undefined;

/** Answers how many jobs were not enqueued (PostgreSQL holds their deliveries: the sweep re-drives them). */
export async function enqueueDeliveries(queues: JobQueues, payloads: ReadonlyArray<JobPayload<'deliver-webhook'>>): Promise<number> {
  if (payloads.length === 0) return 0;
  const queue = queues[QUEUE_NAMES.webhooks];
  if (!hasAddBulk(queue)) {
    const enqueued = await Promise.allSettled(payloads.map((data) => enqueueJob(queues, { name: 'deliver-webhook', data })));
    return enqueued.filter((result) => result.status === 'rejected').length;
  }
  webhookJobOptions ??= bullJobOptions(jobOptionsFor(QUEUE_NAMES.webhooks));
  const options = webhookJobOptions;
  try {
    const jobs = payloads.map((data) => {
      parseJobPayload('deliver-webhook', data);
      return { name: 'deliver-webhook', data, opts: { jobId: jobIdOf({ name: 'deliver-webhook', data }), ...options } };
    });
    await queue.addBulk(jobs);
    return 0;
  } catch {
    return payloads.length;
  }
}
