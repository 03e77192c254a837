import { EventEmitter } from 'node:events';
import type { InvoiceRecord } from '@talao/persistence';
import { type JobEndEvents, OutcomeWaiter } from './outcome-waiter.js';

const record = (status: InvoiceRecord['status']): InvoiceRecord => ({ id: 'inv-1', status } as InvoiceRecord);

function setup(states: InvoiceRecord['status'][]) {
  const events = new EventEmitter();
  const reads: number[] = [];
  const reader = { findById: async () => (reads.push(1), record(states[Math.min(reads.length - 1, states.length - 1)] ?? 'processing')) };
  return { events, reads, waiter: new OutcomeWaiter(reader, events as JobEndEvents) };
}

describe('OutcomeWaiter', () => {
  it('skips the first read for a just-created invoice and reads once when its job ends', async () => {
    const { events, reads, waiter } = setup(['issued']);
    const waiting = waiter.waitForFinal('inv-1', 5_000, record('processing'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toHaveLength(0);
    events.emit('completed', { jobId: 'inv-1' });
    expect((await waiting)?.status).toBe('issued');
    expect(reads).toHaveLength(1);
  });

  it('reads at once when the job ended before the caller started waiting', async () => {
    const { events, reads, waiter } = setup(['issued']);
    events.emit('completed', { jobId: 'inv-1' });
    expect((await waiter.waitForFinal('inv-1', 5_000, record('processing')))?.status).toBe('issued');
    expect(reads).toHaveLength(1);
  });

  it('without a known record, reads first (a resumed or replayed call)', async () => {
    const { reads, waiter } = setup(['rejected']);
    expect((await waiter.waitForFinal('inv-1', 5_000))?.status).toBe('rejected');
    expect(reads).toHaveLength(1);
  });

  it('answers the invoice still processing when the window closes', async () => {
    const { waiter } = setup(['processing']);
    expect((await waiter.waitForFinal('inv-1', 30, record('processing')))?.status).toBe('processing');
  });
});
