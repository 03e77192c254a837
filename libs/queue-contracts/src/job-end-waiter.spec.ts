import { EventEmitter } from 'node:events';
import { type JobEndEvents, JobEndWaiter } from './job-end-waiter.js';

type Row = { status: 'pending' | 'done' };

function setup(states: Row['status'][], fallbackPollMs = 5_000) {
  const events = new EventEmitter();
  let reads = 0;
  const read = async (): Promise<Row> => ({ status: states[Math.min(reads++, states.length - 1)] ?? 'pending' });
  const waiter = new JobEndWaiter(events as JobEndEvents, { fallbackPollMs });
  const plan = { read, settled: (row: Row) => row.status === 'done' };
  return { events, waiter, plan, reads: () => reads };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('JobEndWaiter', () => {
  it('re-reads when the job ends and returns the settled record', async () => {
    const { events, waiter, plan, reads } = setup(['pending', 'done']);
    const waiting = waiter.waitUntilSettled('job-1', 5_000, plan);
    await tick();
    expect(reads()).toBe(1);
    events.emit('completed', { jobId: 'job-1' });
    expect(await waiting).toEqual({ status: 'done' });
    expect(reads()).toBe(2);
  });

  it('takes the record from the end itself when the plan can, without reading', async () => {
    const { events, waiter, plan, reads } = setup(['pending']);
    const waiting = waiter.waitUntilSettled<Row>('job-1', 5_000, {
      ...plan,
      known: { status: 'pending' },
      fromEnd: (end) => (end.outcome === 'completed' ? { status: 'done' } : undefined),
    });
    events.emit('completed', { jobId: 'job-1', returnvalue: 1 });
    expect(await waiting).toEqual({ status: 'done' });
    expect(reads()).toBe(0);
  });

  it('a failed end is only a signal to read', async () => {
    const { events, waiter, plan, reads } = setup(['pending', 'done']);
    const ends: unknown[] = [];
    const fromEnd = (end: unknown) => (ends.push(end), undefined);
    const waiting = waiter.waitUntilSettled('job-1', 5_000, { ...plan, fromEnd });
    await tick();
    events.emit('failed', { jobId: 'job-1' });
    expect(await waiting).toEqual({ status: 'done' });
    expect(ends).toEqual([{ outcome: 'failed' }]);
    expect(reads()).toBe(2);
  });

  it('remembers an end heard before anyone waited, and then skips the known record', async () => {
    const { events, waiter, plan, reads } = setup(['done']);
    events.emit('completed', { jobId: 'job-1' });
    expect(await waiter.waitUntilSettled('job-1', 5_000, { ...plan, known: { status: 'pending' } })).toEqual({ status: 'done' });
    expect(reads()).toBe(1);
  });

  it('ignores the ends of other jobs and answers the record as it stands when the window closes', async () => {
    const { events, waiter, plan } = setup(['pending']);
    const waiting = waiter.waitUntilSettled('job-1', 40, plan);
    events.emit('completed', { jobId: 'job-2' });
    expect(await waiting).toEqual({ status: 'pending' });
  });

  it('a missed signal costs one poll period, not the answer', async () => {
    const { waiter, plan, reads } = setup(['pending', 'done'], 20);
    expect(await waiter.waitUntilSettled('job-1', 5_000, plan)).toEqual({ status: 'done' });
    expect(reads()).toBe(2);
  });

  it('wakes every request waiting on the same job', async () => {
    const { events, waiter, plan } = setup(['pending', 'pending', 'done']);
    const first = waiter.waitUntilSettled('job-1', 5_000, plan);
    const second = waiter.waitUntilSettled('job-1', 5_000, plan);
    await tick();
    events.emit('completed', { jobId: 'job-1' });
    expect(await Promise.all([first, second])).toEqual([{ status: 'done' }, { status: 'done' }]);
  });
});
