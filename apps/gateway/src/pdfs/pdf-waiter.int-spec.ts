// PdfWaiter against the run's Redis, with no outcome signal at all (as after a lost pub/sub message): what it reads
// of the job decides — a render still waiting is not yet, one that completed is ended with its result, and one that
// failed every attempt is retried (its jobId is the version: left failed, every later GET would wait on it in vain).
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { jobIdOf } from '@talao/queue-contracts';
import { useScratchQueue } from '@talao/queue-contracts/testing';
import { UnrecoverableError } from 'bullmq';
import { PdfWaiter } from './pdf-waiter.js';

const scratch = useScratchQueue('pdf', 'pdf-waiter');
/** Never emits: the waiter learns everything from its reads. */
const silent = new EventEmitter();
const render = () => ({ invoiceId: randomUUID(), version: 'r2.authorized.mi4x8k2a' });
const jobId = (data: { invoiceId: string; version: string }) => jobIdOf({ name: 'render-pdf', data });

it('enqueues the render and answers "not yet" once the window has passed while it waits', async () => {
  const data = render();
  const started = Date.now();
  expect(await new PdfWaiter(scratch.queue(), silent).renderAndWait(data.invoiceId, data.version, 300)).toEqual({ kind: 'timeout' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(await scratch.queue().getJobState(jobId(data))).toBe('waiting');
});

it('a render that completed before the request is ended at once, with its result', async () => {
  const data = render();
  const waiter = new PdfWaiter(scratch.queue(), silent);
  await waiter.renderAndWait(data.invoiceId, data.version, 0);
  const result = { kind: 'rendered', version: data.version, sha256: 'ab'.repeat(32) };
  expect(await scratch.endJob(jobId(data), async () => result)).toBe('completed');
  const started = Date.now();
  expect(await waiter.renderAndWait(data.invoiceId, data.version, 5_000)).toEqual({ kind: 'ended', result });
  expect(Date.now() - started).toBeLessThan(5_000);
});

it('a render that failed every attempt is retried, not waited on', async () => {
  const data = render();
  const waiter = new PdfWaiter(scratch.queue(), silent);
  await waiter.renderAndWait(data.invoiceId, data.version, 0);
  const failed = await scratch.endJob(jobId(data), async () => {
    throw new UnrecoverableError('Chromium down');
  });
  expect(failed).toBe('failed');
  expect(await waiter.renderAndWait(data.invoiceId, data.version, 100)).toEqual({ kind: 'timeout' });
  expect(await scratch.queue().getJobState(jobId(data))).toBe('waiting');
});
