// PdfWaiter against the run's Redis, with no outcome signal at all (as after a lost pub/sub message): what it reads
// of the job decides — a render still waiting is not yet, one that completed is ended with its result, and one that
// failed every attempt is retried (its jobId is the version: left failed, every later GET would wait on it in vain).
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { jobIdOf, queueKeyPrefix } from '@talao/queue-contracts';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { PdfWaiter } from './pdf-waiter.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let prefix: string;
let connection: Redis;
let queue: Queue;
/** Never emits: the waiter learns everything from its reads. */
const silent = new EventEmitter();

beforeEach(() => {
  prefix = queueKeyPrefix(`${process.env.REDIS_PREFIX ?? 'talao-test:'}pdf-waiter-${randomUUID().slice(0, 8)}:`);
  connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  queue = new Queue('pdf', { connection, prefix });
});

afterEach(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
});

const render = () => ({ invoiceId: randomUUID(), version: 'r2.authorized.mi4x8k2a' });
const jobId = (data: { invoiceId: string; version: string }) => jobIdOf({ name: 'render-pdf', data });

/** Runs the queue's jobs with `run` until the job `id` has ended; its state then. */
async function endJob(id: string, run: () => Promise<unknown>): Promise<string> {
  const worker = new Worker('pdf', run, { connection: new Redis(redisUrl, { maxRetriesPerRequest: null }), prefix });
  try {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const state = await queue.getJobState(id);
      if (state === 'completed' || state === 'failed') return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return queue.getJobState(id);
  } finally {
    await worker.close();
  }
}

it('enqueues the render and answers "not yet" once the window has passed while it waits', async () => {
  const data = render();
  const started = Date.now();
  expect(await new PdfWaiter(queue, silent).renderAndWait(data.invoiceId, data.version, 300)).toEqual({ kind: 'timeout' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(await queue.getJobState(jobId(data))).toBe('waiting');
});

it('a render that completed before the request is ended at once, with its result', async () => {
  const data = render();
  const waiter = new PdfWaiter(queue, silent);
  await waiter.renderAndWait(data.invoiceId, data.version, 0);
  const result = { kind: 'rendered', version: data.version, sha256: 'ab'.repeat(32) };
  expect(await endJob(jobId(data), async () => result)).toBe('completed');
  const started = Date.now();
  expect(await waiter.renderAndWait(data.invoiceId, data.version, 5_000)).toEqual({ kind: 'ended', result });
  expect(Date.now() - started).toBeLessThan(5_000);
});

it('a render that failed every attempt is retried, not waited on', async () => {
  const data = render();
  const waiter = new PdfWaiter(queue, silent);
  await waiter.renderAndWait(data.invoiceId, data.version, 0);
  const failed = await endJob(jobId(data), async () => {
    throw new UnrecoverableError('Chromium down');
  });
  expect(failed).toBe('failed');
  expect(await waiter.renderAndWait(data.invoiceId, data.version, 100)).toEqual({ kind: 'timeout' });
  expect(await queue.getJobState(jobId(data))).toBe('waiting');
});
