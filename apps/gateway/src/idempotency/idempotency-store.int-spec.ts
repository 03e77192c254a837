// The Idempotency-Key protocol on the run's PostgreSQL: the row as the lock under real concurrency, replay, body
// mismatch, 24 h expiry, release after an unexpected failure, and the takeover of a dead holder's lock.
import { CompaniesRepository } from '@talao/persistence';
import { newCompanyInput, testPrismaClient } from '@talao/persistence/testing';
import { IdempotencyStore } from './idempotency-store.js';
import { runIdempotently } from './run-idempotently.js';

const prisma = testPrismaClient({ poolMax: 12 });
const store = new IdempotencyStore(prisma, { retentionMs: 24 * 3_600_000, lockTtlMs: 60_000 });
let companyId: string;

beforeAll(async () => {
  companyId = (await new CompaniesRepository(prisma).create(newCompanyInput())).id;
});

afterAll(async () => {
  await prisma.company.delete({ where: { id: companyId } });
  await prisma.$disconnect();
});

const scope = (key: string) => ({ companyId, environment: 'homologation' as const, key });
const key = () => `k-${Math.random().toString(36).slice(2)}`;

describe('IdempotencyStore', () => {
  it('lets exactly one of many concurrent first calls hold the key', async () => {
    const k = key();
    const results = await Promise.all(Array.from({ length: 10 }, () => store.begin(scope(k), 'create_invoice', 'a'.repeat(64))));
    expect(results.filter((r) => r.kind === 'acquired')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'in_flight')).toHaveLength(9);
  });

  it('replays the completed response, refuses another body, is scoped to the environment', async () => {
    const k = key();
    expect(await store.begin(scope(k), 'create_invoice', 'a'.repeat(64))).toEqual({ kind: 'acquired' });
    await store.complete(scope(k), { status: 201, body: { invoice_id: 'x' } });
    expect(await store.begin(scope(k), 'create_invoice', 'a'.repeat(64))).toEqual({
      kind: 'replay',
      response: { status: 201, body: { invoice_id: 'x' } },
    });
    expect(await store.begin(scope(k), 'create_invoice', 'b'.repeat(64))).toEqual({ kind: 'mismatch' });
    expect(await store.begin({ ...scope(k), environment: 'production' }, 'create_invoice', 'b'.repeat(64))).toEqual({ kind: 'acquired' });
  });

  it('forgets a record after 24 h', async () => {
    const k = key();
    const then = new Date(Date.now() - 25 * 3_600_000);
    await store.begin(scope(k), 'create_invoice', 'a'.repeat(64), then);
    await store.complete(scope(k), { status: 201, body: {} }, then);
    expect(await store.begin(scope(k), 'create_invoice', 'b'.repeat(64))).toEqual({ kind: 'acquired' });
  });

  it('a dead holder: after the lock TTL the key is taken over, with the invoice it had created', async () => {
    const k = key();
    const longAgo = new Date(Date.now() - 120_000);
    await store.begin(scope(k), 'create_invoice', 'a'.repeat(64), longAgo);
    await store.markInvoice(scope(k), '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f');
    const [first, second] = await Promise.all([
      store.begin(scope(k), 'create_invoice', 'a'.repeat(64)),
      store.begin(scope(k), 'create_invoice', 'a'.repeat(64)),
    ]);
    expect([first, second]).toContainEqual({ kind: 'acquired', resumeInvoiceId: '0b7c6f3e-2d1a-4c5b-9e8f-1a2b3c4d5e6f' });
    expect([first, second]).toContainEqual({ kind: 'in_flight' });
  });
});

describe('runIdempotently', () => {
  const call = (k: string | undefined, body: unknown, run: () => Promise<{ status: number; body: Record<string, unknown> }>) =>
    runIdempotently({ store, companyId, environment: 'homologation', key: k, operation: 'create_invoice', body, run });

  it('runs once per key and body; the replay is the same status and body', async () => {
    const k = key();
    let runs = 0;
    const work = async () => ({ status: 502, body: { detail: { message: 'Rejeicao', invoice_id: String(++runs) } } });
    const first = await call(k, { a: 1, b: [1, 2] }, work);
    const replay = await call(k, { b: [1, 2], a: 1 }, work);
    expect(runs).toBe(1);
    expect(replay.status).toBe(first.status);
    expect(replay.body).toEqual(first.body);
    expect((await call(k, { a: 2 }, work)).status).toBe(422);
    expect((await call('x'.repeat(256), {}, work)).status).toBe(422);
  });

  it('frees the key when the operation fails unexpectedly before creating anything', async () => {
    const k = key();
    await expect(call(k, {}, async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect((await call(k, {}, async () => ({ status: 201, body: { ok: true } }))).status).toBe(201);
  });
});
