// The worker runtime against the run's Redis: jobs routed to their handler by name with parsed payloads, outcomes on
// the queue's channel (or none when the app turns them off), retries through RetryLaterError, the startup check, readiness, periodic tasks, and a close
// that drains the jobs in progress.
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { createLogger } from '@talao/observability';
import { jobOutcomeChannel, JobOutcomeSubscription, queueKeyPrefix, RetryLaterError } from '@talao/queue-contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { probeDependencies, ProbeHandlers, probeWorker, SecondIssueHandler } from './testing/probe-worker.js';
import { type RunningWorkerApp, startWorkerApp } from './worker-app.js';

jest.setTimeout(30_000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = createLogger({ name: 'worker-runtime-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let redisPrefix: string;
let queue: Queue;
let connection: Redis;
let subscriber: Redis;
let outcomes: JobOutcomeSubscription;
const running: RunningWorkerApp[] = [];

beforeEach(async () => {
  redisPrefix = `${process.env.REDIS_PREFIX ?? 'talao-test:'}runtime-${randomUUID().slice(0, 8)}:`;
  connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  queue = new Queue('issuance', { connection, prefix: queueKeyPrefix(redisPrefix) });
  subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  outcomes = new JobOutcomeSubscription(subscriber, jobOutcomeChannel(queueKeyPrefix(redisPrefix), 'issuance'));
  await outcomes.ready;
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((worker) => worker.close()));
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  subscriber.disconnect();
});

async function start(...args: Parameters<typeof probeWorker>): Promise<RunningWorkerApp> {
  const worker = await startWorkerApp(probeWorker(...args), { logger: silent });
  running.push(worker);
  return worker;
}

/** The next outcome message of `jobId` on the channel. */
function outcomeOf(jobId: string): Promise<{ event: string; returnvalue?: unknown }> {
  return new Promise((resolve) => {
    const on = (event: string) => (message: { jobId: string; returnvalue?: unknown }) => {
      if (message.jobId === jobId) resolve({ event, ...(message.returnvalue !== undefined && { returnvalue: message.returnvalue }) });
    };
    outcomes.on('completed', on('completed'));
    outcomes.on('failed', on('failed'));
  });
}

async function stateOf(jobId: string): Promise<string | undefined> {
  return (await queue.getJob(jobId))?.getState();
}

describe('routing', () => {
  it('hands a job to the handler of its name with the parsed payload and attempt, and publishes its result', async () => {
    const probe = probeDependencies();
    probe.answer = async (data) => ({
      kind: 'final',
      status: 'issued',
      decided: {
        status: 'issued',
        accessKey: data.invoiceId,
        protocol: '1',
        statusCode: '100',
        statusMessage: 'ok',
        contingency: false,
        issuedAt: null,
        invalidatedById: null,
      },
    });
    await start(redisPrefix, probe);
    const invoiceId = randomUUID();
    const ended = outcomeOf(invoiceId);
    await queue.add('issue', { invoiceId }, { jobId: invoiceId, attempts: 3 });

    const outcome = await ended;
    expect(probe.seen).toEqual([{ data: { invoiceId }, attempt: { number: 1, final: false }, jobId: invoiceId }]);
    expect(outcome).toEqual({
      event: 'completed',
      returnvalue: expect.objectContaining({ kind: 'final', decided: expect.objectContaining({ accessKey: invoiceId }) }),
    });
    for (let i = 0; i < 50 && (await stateOf(invoiceId)) !== 'completed'; i++) await sleep(20);
    expect((await queue.getJob(invoiceId))?.returnvalue).toEqual(outcome.returnvalue);
  });

  it('publishes no outcome for an app that turns outcomes off (a queue nobody waits on), and still completes its jobs', async () => {
    const probe = probeDependencies();
    probe.answer = async () => ({ kind: 'final', status: 'failed' });
    const worker = await startWorkerApp({ ...probeWorker(redisPrefix, probe), publishJobOutcomes: false }, { logger: silent });
    running.push(worker);
    const heard: string[] = [];
    const hear = (message: { jobId: string }) => heard.push(message.jobId);
    outcomes.on('completed', hear);
    outcomes.on('failed', hear);
    const invoiceId = randomUUID();
    await queue.add('issue', { invoiceId }, { jobId: invoiceId });
    await queue.add('issue', { invoiceId: 'not-a-uuid' }, { jobId: 'bad-payload' });

    for (let i = 0; i < 100 && ((await stateOf(invoiceId)) !== 'completed' || (await stateOf('bad-payload')) !== 'failed'); i++)
      await sleep(20);
    expect([await stateOf(invoiceId), await stateOf('bad-payload')]).toEqual(['completed', 'failed']);
    await sleep(200); // a message published before the job was marked ended would have arrived by now
    expect(heard).toEqual([]);
    expect(probe.seen).toHaveLength(1);
  });

  it('fails a job whose payload breaks its schema without calling the handler', async () => {
    const probe = probeDependencies();
    await start(redisPrefix, probe);
    const ended = outcomeOf('bad-payload');
    await queue.add('issue', { invoiceId: 'not-a-uuid' }, { jobId: 'bad-payload' });

    expect(await ended).toEqual({ event: 'failed' });
    expect(probe.seen).toEqual([]);
    for (let i = 0; i < 50 && (await stateOf('bad-payload')) !== 'failed'; i++) await sleep(20);
    expect((await queue.getJob('bad-payload'))?.failedReason).toMatch(/invoiceId/);
  });

  it('retries on RetryLaterError with the error itself reaching BullMQ, then completes on the last attempt', async () => {
    const probe = probeDependencies();
    probe.answer = async (_data, job) => {
      if (!job.attempt.final) throw new RetryLaterError('authorizer unavailable');
      return { kind: 'final', status: 'failed' };
    };
    await start(redisPrefix, probe);
    const invoiceId = randomUUID();
    await queue.add('issue', { invoiceId }, { jobId: invoiceId, attempts: 2, backoff: { type: 'fixed', delay: 10 } });

    for (let i = 0; i < 200 && (await stateOf(invoiceId)) !== 'completed'; i++) await sleep(20);
    const job = await queue.getJob(invoiceId);
    expect(job?.returnvalue).toEqual({ kind: 'final', status: 'failed' });
    expect(job?.stacktrace?.join('\n')).toContain('RetryLaterError: authorizer unavailable');
    expect(probe.seen.map((call) => call.attempt)).toEqual([
      { number: 1, final: false },
      { number: 2, final: true },
    ]);
  });
});

describe('startup check', () => {
  it('refuses to start without a handler for every job of the queue, and releases what it opened', async () => {
    const probe = probeDependencies();
    await expect(start(redisPrefix, probe, { handlers: [] })).rejects.toThrow('queue "issuance": job "issue" has no handler');
    expect(probe.closed).toBe(true);
  });

  it('refuses two handlers for one job', async () => {
    const probe = probeDependencies();
    await expect(start(redisPrefix, probe, { handlers: [ProbeHandlers, SecondIssueHandler] })).rejects.toThrow(
      'job "issue" has 2 handlers',
    );
    expect(probe.closed).toBe(true);
    // Nothing consumes the queue: a job added now stays waiting.
    const invoiceId = randomUUID();
    await queue.add('issue', { invoiceId }, { jobId: invoiceId });
    await sleep(200);
    expect(await stateOf(invoiceId)).toBe('waiting');
  });
});

describe('lifecycle', () => {
  it('answers readiness from every check, the worker and Redis included', async () => {
    let databaseUp = true;
    const probe = probeDependencies({ database: async () => databaseUp || Promise.reject(new Error('down')) });
    const worker = await start(redisPrefix, probe);
    expect((await fetch(`${worker.healthUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${worker.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: true, redis: true, worker: true } });
    databaseUp = false;
    const notReady = await fetch(`${worker.healthUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ status: 'not ready', checks: { database: false, redis: true, worker: true } });
  });

  it('serves /metrics: its queue depth read from Redis at scrape time, each job wait and processing time by outcome', async () => {
    const probe = probeDependencies();
    probe.answer = async () => {
      throw new RetryLaterError('authorizer away');
    };
    const worker = await start(redisPrefix, probe);
    const retried = randomUUID();
    const failed = outcomeOf(retried);
    await queue.add('issue', { invoiceId: retried }, { jobId: retried, attempts: 1 });
    expect((await failed).event).toBe('failed');
    const later = randomUUID();
    await queue.add('issue', { invoiceId: later }, { jobId: later, delay: 60_000 });
    const response = await fetch(`${worker.healthUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    // The registry is the process's: other tests of this file add to the counters, never to this queue's depth.
    expect(text).toContain('talao_queue_jobs{queue="issuance",state="delayed"} 1');
    expect(text).toContain('talao_queue_jobs{queue="issuance",state="failed"} 1');
    expect(text).toMatch(/talao_queue_job_wait_seconds_count\{queue="issuance",job="issue"\} [1-9]/);
    expect(text).toMatch(/talao_queue_job_processing_seconds_count\{queue="issuance",job="issue",outcome="retry"\} [1-9]/);
  });

  it('runs periodic tasks, one run at a time, and stops them on close', async () => {
    const probe = probeDependencies();
    let runs = 0;
    let failures = 0;
    const worker = await start(redisPrefix, probe, {
      tasks: [
        { name: 'count', intervalMs: 20, run: async () => ++runs },
        { name: 'broken', intervalMs: 20, run: async () => (failures++, Promise.reject(new Error('x'))) },
      ],
    });
    for (let i = 0; i < 100 && (runs < 3 || failures < 3); i++) await sleep(20);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(failures).toBeGreaterThanOrEqual(3); // a failing run is logged; the next tick runs again
    await worker.close();
    const after = runs;
    await sleep(100);
    expect(runs).toBe(after);
  });

  it('closing waits for the jobs in progress: their results are recorded and published, then connections close', async () => {
    const probe = probeDependencies();
    let release!: () => void;
    const entered = new Promise<void>((resolve) => {
      probe.answer = () => {
        resolve();
        return new Promise((done) => (release = () => done({ kind: 'skipped', reason: 'drained' })));
      };
    });
    const worker = await start(redisPrefix, probe);
    const invoiceId = randomUUID();
    const ended = outcomeOf(invoiceId);
    await queue.add('issue', { invoiceId }, { jobId: invoiceId });
    await entered;

    let closed = false;
    const closing = worker.close().then(() => (closed = true));
    await sleep(300);
    expect(closed).toBe(false); // still draining
    expect(probe.closed).toBe(false);
    release();
    await closing;
    expect(await ended).toEqual({ event: 'completed', returnvalue: { kind: 'skipped', reason: 'drained' } });
    expect(await stateOf(invoiceId)).toBe('completed');
    expect(probe.closed).toBe(true);
    expect((await fetch(`${worker.healthUrl}/healthz`).catch(() => undefined))?.status).toBeUndefined();
  });
});
