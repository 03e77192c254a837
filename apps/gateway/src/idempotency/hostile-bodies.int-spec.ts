// Idempotent calls with bodies built to break them (issue 15, defects 1, 2 and 12): every one ends with a 4xx, and
// no key stays locked by an attempt that ended.
import { jest } from '@jest/globals';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { createCompanyWithKey, startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { IdempotencyStore } from './idempotency-store.js';
import { runIdempotently } from './run-idempotently.js';

jest.setTimeout(60_000);

/** How many errors an answer lists (LISTED of http/error-envelope.ts). */
const LISTED = 20;

describe('idempotent calls with hostile bodies (real PostgreSQL)', () => {
  let gateway: TestGateway;
  let caller: Awaited<ReturnType<typeof createCompanyWithKey>>;

  beforeAll(async () => {
    gateway = await startTestGateway({ RATE_LIMIT_CREATE_INVOICE: '1000' });
    caller = await createCompanyWithKey(gateway);
  });
  afterAll(async () => {
    await gateway.close();
  });

  const rowsOf = (key: string) => gateway.resources.prisma.idempotencyRecord.findMany({ where: { companyId: caller.companyId, key } });
  const post = (body: unknown, key: string) =>
    gateway.request('POST', '/api/v1/invoices', {
      token: caller.key,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'idempotency-key': key },
    });

  it('refuses a NUL or an unpaired surrogate with 422 naming the field, before any record is written', async () => {
    const buyer = sampleNfeRequest().buyer as Record<string, unknown>;
    for (const [field, body] of [
      ['buyer.name', JSON.stringify(sampleNfeRequest({ buyer: { ...buyer, name: 'Maria\u0000' } }))],
      ['buyer.tax_id', JSON.stringify(sampleNfeRequest({ buyer: { ...buyer, tax_id: '123\ud800' } }))],
    ] as const) {
      const key = `nul-${field}-${Date.now()}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await post(body, key);
        expect(response.status).toBe(422);
        const answer = (await response.json()) as { detail: { code: string; field: string; received: unknown } };
        expect(answer.detail).toMatchObject({ code: 'FIELD_CHARACTERS_UNSUPPORTED', field, received: null });
      }
      expect(await rowsOf(key)).toEqual([]);
    }
  });

  it('refuses 3,000 levels of nesting with 422 (the fingerprint never recurses that deep)', async () => {
    const key = `deep-${Date.now()}`;
    const response = await post(`{"items":${'['.repeat(3_000)}${']'.repeat(3_000)}}`, key);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toBe('The request body nests objects and arrays deeper than 32 levels');
    expect(await rowsOf(key)).toEqual([]);
  });

  it('lists at most 20 errors, says how many more there were, and records only that', async () => {
    const body: Record<string, unknown> = sampleNfeRequest();
    for (let i = 0; i < 50_000; i++) body[`unknown_${i}`] = 1;
    const key = `many-${Date.now()}`;
    const response = await post(body, key);
    expect(response.status).toBe(422);
    const text = await response.text();
    expect(text.length).toBeLessThan(20_000);
    const answer = JSON.parse(text) as { detail: { code: string }; errors: unknown[]; errors_total: number; errors_omitted: number };
    expect(answer.errors).toHaveLength(LISTED);
    expect(answer).toMatchObject({ errors_total: 50_000, errors_omitted: 50_000 - LISTED, detail: { code: 'FIELD_UNKNOWN' } });
    const [row] = await rowsOf(key);
    expect(row?.completedAt).not.toBeNull();
    expect(JSON.stringify(row?.responseBody).length).toBeLessThan(20_000);
    // The replay is the same bounded answer.
    const replay = await post(body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(text);
  });

  it('frees the key when the answer cannot be recorded (PostgreSQL refuses a NUL in jsonb)', async () => {
    const key = `unstorable-${Date.now()}`;
    const call = (detail: string) =>
      runIdempotently({
        store: new IdempotencyStore(gateway.resources.prisma, { retentionMs: 86_400_000, lockTtlMs: 60_000 }),
        companyId: caller.companyId,
        environment: 'homologation',
        key,
        operation: 'create_invoice',
        body: {},
        run: async () => ({ status: 422, body: { detail } }),
      });
    await expect(call('text PostgreSQL cannot store: \u0000')).rejects.toThrow();
    expect(await rowsOf(key)).toEqual([]);
    expect(await call('fine')).toMatchObject({ status: 422 });
  });
});
