// enqueueReplacingEnded against the run's Redis: a job id held by an ended job (completed or failed) is freed and the
// job added again; a live job is left alone.
import { randomUUID } from 'node:crypto';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { enqueueReplacingEnded } from './enqueue.js';
import { type Job, jobIdOf } from './job-payloads.js';
import { queueKeyPrefix } from './queue-names.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let prefix: string;
let connection: Redis;
let queue: Queue;

beforeEach(() => {
  prefix = queueKeyPrefix(`${process.env.REDIS_PREFIX ?? 'talao-test:'}enqueue-${randomUUID().slice(0, 8)}:`);
  connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  queue = new Queue('amendments', { connection, prefix });
});

afterEach(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
});

const amend = (): Job => ({ name: 'amend', data: { amendmentId: randomUUID() } });
const stateOf = async (id: string) => (await queue.getJob(id))?.getState();

/** Runs the queue's jobs with `run` until the job `id` has ended. */
async function endJob(id: string, run: () => Promise<unknown>): Promise<string | undefined> {
  const worker = new Worker('amendments', run, { connection: new Redis(redisUrl, { maxRetriesPerRequest: null }), prefix });
  try {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const state = await stateOf(id);
      if (state === 'completed' || state === 'failed') return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return stateOf(id);
  } finally {
    await worker.close();
  }
}

it('adds a job no other holds, and leaves a live one as it is', async () => {
  const job = amend();
  const id = jobIdOf(job);
  expect(await enqueueReplacingEnded(queue, job)).toBe('added');
  expect(await enqueueReplacingEnded(queue, job)).toBe('live');
  expect(await stateOf(id)).toBe('waiting');
  expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
});

it.each([
  ['completed', async () => 'done'],
  [
    'failed',
    async () => {
      throw new UnrecoverableError('gave up');
    },
  ],
])('replaces a %s job of the same id (BullMQ keeps its id, so a plain add would be a no-op)', async (ended, run) => {
  const job = amend();
  const id = jobIdOf(job);
  expect(await enqueueReplacingEnded(queue, job, { fresh: true })).toBe('added');
  expect(await endJob(id, run)).toBe(ended);
  expect(await enqueueReplacingEnded(queue, job)).toBe('replaced');
  expect(await stateOf(id)).toBe('waiting');
});
