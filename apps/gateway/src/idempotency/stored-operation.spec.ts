import { MAX_OPERATION_LENGTH, storedOperation } from './idempotency-store.js';

describe('storedOperation', () => {
  it('keeps an operation that fits the column as it is', () => {
    const nfe = `cancel_invoice:${'3'.repeat(44)}`;
    expect(storedOperation(nfe)).toBe(nfe);
  });

  it('fits the cancellation of an NFS-e (50-character key) and a hostile path into the column, distinct from each other', () => {
    const nfse = `cancel_invoice:${'3'.repeat(50)}`;
    const other = `cancel_invoice:${'3'.repeat(49)}4`;
    const hostile = `cancel_invoice:${'x'.repeat(5_000)}`;
    for (const operation of [nfse, other, hostile]) expect(storedOperation(operation).length).toBeLessThanOrEqual(MAX_OPERATION_LENGTH);
    expect(storedOperation(nfse)).toMatch(/^cancel_invoice:3+#[0-9a-f]{32}$/);
    expect(storedOperation(nfse)).not.toBe(storedOperation(other));
    expect(storedOperation(nfse)).toBe(storedOperation(nfse));
  });
});
