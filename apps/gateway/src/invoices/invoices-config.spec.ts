import { ConfigError } from '@talao/config';
import { loadInvoicesConfig } from './invoices-config.js';

describe('loadInvoicesConfig: batching of the create path (DB_BATCH_*)', () => {
  it('batches 32 calls per statement, 2 batches in flight, by default', () => {
    expect(loadInvoicesConfig({}).dbBatching).toEqual({ maxBatch: 32, maxInFlight: 2 });
  });

  it('reads both settings; DB_BATCH_MAX 0 or 1 turns batching off', () => {
    expect(loadInvoicesConfig({ DB_BATCH_MAX: '8', DB_BATCH_IN_FLIGHT: '3' }).dbBatching).toEqual({
      maxBatch: 8,
      maxInFlight: 3,
    });
    expect(loadInvoicesConfig({ DB_BATCH_MAX: '1' }).dbBatching).toBeUndefined();
    expect(loadInvoicesConfig({ DB_BATCH_MAX: '0' }).dbBatching).toBeUndefined();
  });

  it('refuses a malformed size and no batch in flight', () => {
    expect(() => loadInvoicesConfig({ DB_BATCH_MAX: 'many' })).toThrow(ConfigError);
    expect(() => loadInvoicesConfig({ DB_BATCH_IN_FLIGHT: '0' })).toThrow(/DB_BATCH_IN_FLIGHT must be at least 1/);
  });
});

describe('loadInvoicesConfig: waiting', () => {
  it('waits 10 s and holds an Idempotency-Key 30 s longer than the wait, unless told otherwise', () => {
    expect(loadInvoicesConfig({})).toMatchObject({ issueWaitMs: 10_000, idempotencyLockTtlMs: 40_000 });
    expect(loadInvoicesConfig({ ISSUE_WAIT_MS: '0', IDEMPOTENCY_LOCK_TTL_MS: '5' })).toMatchObject({
      issueWaitMs: 0,
      idempotencyLockTtlMs: 5,
    });
  });

  it('does not read TECHNICAL_RESPONSIBLE_*: the gateway plans no document (the issuer, which writes infRespTec, requires it)', () => {
    expect(() => loadInvoicesConfig({})).not.toThrow();
  });
});
