// enqueueReplacingEnded against the run's Redis: a job id held by an ended job (completed or failed) is freed and the
// job added again; a live job is left alone.
import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { enqueueReplacingEnded } from './enqueue.js';
import { type Job, jobIdOf } from './job-payloads.js';
import { useScratchQueue } from './testing/scratch-queue.js';

const scratch = useScratchQueue('amendments', 'enqueue');
const amend = (): Job => ({ name: 'amend', data: { amendmentId: randomUUID() } });
const stateOf = (id: string) => scratch.queue().getJobState(id);

it('adds a job no other holds, and leaves a live one as it is', async () => {
  const job = amend();
  const id = jobIdOf(job);
  expect(await enqueueReplacingEnded(scratch.queue(), job)).toBe('added');
  expect(await enqueueReplacingEnded(scratch.queue(), job)).toBe('live');
  expect(await stateOf(id)).toBe('waiting');
  expect(await scratch.queue().getJobCounts('waiting')).toEqual({ waiting: 1 });
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
  expect(await enqueueReplacingEnded(scratch.queue(), job, { fresh: true })).toBe('added');
  expect(await scratch.endJob(id, run)).toBe(ended);
  expect(await enqueueReplacingEnded(scratch.queue(), job)).toBe('replaced');
  expect(await stateOf(id)).toBe('waiting');
});
