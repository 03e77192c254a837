import { EventEmitter } from 'node:events';
import type { InvoiceRecord } from '@talao/persistence';
import { type JobEndEvents, OutcomeWaiter } from './outcome-waiter.js';

const record = (status: InvoiceRecord['status']): InvoiceRecord => ({ id: 'inv-1', status }) as InvoiceRecord;

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

  const decided = {
    status: 'issued',
    accessKey: '3'.repeat(44),
    protocol: '135260000000001',
    statusCode: '100',
    statusMessage: 'Autorizado o uso da NF-e',
    contingency: false,
    issuedAt: '2026-11-22T10:00:00.000Z',
    invalidatedById: null,
  };
  const created = (): InvoiceRecord => ({
    ...record('processing'),
    companyId: 'c-1',
    environment: 'homologation',
    documentType: 'nfe',
    series: 1,
    number: 7,
    accessKey: '3'.repeat(44),
    dpsId: null,
    protocol: null,
    statusCode: null,
    statusMessage: null,
    totalAmount: '10.00',
    contingency: false,
    reissueOfId: null,
    invalidatedById: null,
    issuedAt: null,
    createdAt: new Date('2026-11-22T09:59:59.000Z'),
    request: {},
    authorizedXml: null,
    updatedAt: new Date(),
  });

  it('answers from the decided state the job returned, without reading the invoice back', async () => {
    const { events, reads, waiter } = setup(['processing']);
    const waiting = waiter.waitForFinal('inv-1', 5_000, created());
    await new Promise((resolve) => setImmediate(resolve));
    events.emit('completed', { jobId: 'inv-1', returnvalue: { kind: 'final', status: 'issued', decided } });
    expect(await waiting).toMatchObject({
      id: 'inv-1',
      status: 'issued',
      protocol: '135260000000001',
      number: 7,
      issuedAt: new Date(decided.issuedAt),
    });
    expect(reads).toHaveLength(0);
  });

  it('uses a decided state that arrived before the caller started waiting', async () => {
    const { events, reads, waiter } = setup(['processing']);
    events.emit('completed', { jobId: 'inv-1', returnvalue: { kind: 'final', status: 'issued', decided } });
    expect((await waiter.waitForFinal('inv-1', 5_000, created()))?.status).toBe('issued');
    expect(reads).toHaveLength(0);
  });

  it('reads PostgreSQL when the return value is malformed or says nothing was moved', async () => {
    const { events, reads, waiter } = setup(['rejected']);
    const waiting = waiter.waitForFinal('inv-1', 5_000, created());
    await new Promise((resolve) => setImmediate(resolve));
    events.emit('completed', {
      jobId: 'inv-1',
      returnvalue: { kind: 'final', status: 'issued', decided: { ...decided, status: 'authorized' } },
    });
    expect((await waiting)?.status).toBe('rejected');
    expect(reads).toHaveLength(1);
    const again = waiter.waitForFinal('inv-1', 5_000, created());
    await new Promise((resolve) => setImmediate(resolve));
    events.emit('completed', { jobId: 'inv-1', returnvalue: { kind: 'final', status: 'rejected', alreadyFinal: true } });
    expect((await again)?.status).toBe('rejected');
    expect(reads).toHaveLength(2);
  });
});
