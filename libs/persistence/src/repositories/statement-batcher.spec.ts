import { StatementBatcher } from './statement-batcher.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('StatementBatcher', () => {
  it('sends a lone call by itself, without waiting for company', async () => {
    const batches: number[][] = [];
    const batcher = new StatementBatcher<number, number>(
      async (inputs) => {
        batches.push(inputs);
        return inputs.map((n) => n * 10);
      },
      { maxBatch: 8, maxInFlight: 1 },
    );
    await expect(batcher.run(1)).resolves.toBe(10);
    expect(batches).toEqual([[1]]);
  });

  it('groups the calls made in one turn, and queues the rest behind the running batches', async () => {
    const batches: number[][] = [];
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    const batcher = new StatementBatcher<number, string>(
      async (inputs) => {
        batches.push(inputs);
        const gate = deferred<void>();
        gates.push(gate);
        await gate.promise;
        return inputs.map((n) => `row ${n}`);
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = [1, 2].map((n) => batcher.run(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1, 2]]);
    // While the first batch runs, five more calls queue: they leave in batches of at most three.
    const later = [3, 4, 5, 6, 7].map((n) => batcher.run(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toHaveLength(1);
    gates[0]!.resolve();
    await expect(Promise.all(first)).resolves.toEqual(['row 1', 'row 2']);
    await new Promise((r) => setImmediate(r));
    expect(batches[1]).toEqual([3, 4, 5]);
    gates[1]!.resolve();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(batches[2]).toEqual([6, 7]);
    gates[2]!.resolve();
    await expect(Promise.all(later)).resolves.toEqual(['row 3', 'row 4', 'row 5', 'row 6', 'row 7']);
  });

  it('runs up to maxInFlight batches at once', async () => {
    let running = 0;
    let peak = 0;
    const batcher = new StatementBatcher<number, number>(
      async (inputs) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return inputs;
      },
      { maxBatch: 1, maxInFlight: 3 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.run(i)));
    expect(peak).toBe(3);
  });

  it('retries a failed batch call by call, so only the offending call fails', async () => {
    const batches: number[][] = [];
    const batcher = new StatementBatcher<number, number>(
      async (inputs) => {
        batches.push(inputs);
        if (inputs.includes(13)) throw new Error('unlucky row');
        return inputs;
      },
      { maxBatch: 8, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([12, 13, 14].map((n) => batcher.run(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('unlucky row'));
    expect(batches).toEqual([[12, 13, 14], [12], [13], [14]]);
  });

  it('fails every call of a statement that answers the wrong number of rows', async () => {
    const batcher = new StatementBatcher<number, number>(async () => [], { maxBatch: 8, maxInFlight: 1 });
    await expect(batcher.run(1)).rejects.toThrow('answered 0 rows for 1 calls');
  });

  it('keeps working after a failure', async () => {
    let fail = true;
    const batcher = new StatementBatcher<number, number>(
      async (inputs) => {
        if (fail) throw new Error('connection lost');
        return inputs;
      },
      { maxBatch: 8, maxInFlight: 1 },
    );
    await expect(batcher.run(1)).rejects.toThrow('connection lost');
    fail = false;
    await expect(Promise.all([batcher.run(2), batcher.run(3)])).resolves.toEqual([2, 3]);
  });
});
