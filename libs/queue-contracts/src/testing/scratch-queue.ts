// A BullMQ queue of its own for each test, on the run's Redis under the run's key prefix (REDIS_PREFIX), obliterated
// and closed after the test: tests of what producers and waiters read of a queue, with real Redis.
import { randomUUID } from 'node:crypto';
import { type Processor, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { type QueueName, queueKeyPrefix } from '../queue-names.js';

export interface ScratchQueue {
  /** This test's queue. */
  queue(): Queue;
  /** Runs the queue's jobs with `run` until the job `id` has ended (or 10 s passed); the job's state then. */
  endJob(id: string, run: Processor): Promise<string>;
}

/** Registers the per-test set-up and tear-down; `label` names the test file in the Redis keys. */
export function useScratchQueue(name: QueueName, label: string): ScratchQueue {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  let prefix: string;
  let connection: Redis;
  let queue: Queue;

  beforeEach(() => {
    prefix = queueKeyPrefix(`${process.env.REDIS_PREFIX ?? 'talao-test:'}${label}-${randomUUID().slice(0, 8)}:`);
    connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(name, { connection, prefix });
  });

  afterEach(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
  });

  return {
    queue: () => queue,
    async endJob(id, run) {
      const worker = new Worker(name, run, { connection: new Redis(redisUrl, { maxRetriesPerRequest: null }), prefix });
      try {
        for (let waited = 0; waited < 10_000; waited += 50) {
          const state = await queue.getJobState(id);
          if (state === 'completed' || state === 'failed') return state;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return await queue.getJobState(id);
      } finally {
        await worker.close();
      }
    },
  };
}
