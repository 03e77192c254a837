// Coalesces concurrent calls of one statement into multi-row statements. In PostgreSQL a single-row statement with
// its own commit costs far more than its row: measured on the 2-core machine, an INSERT of a 6 KB row costs ~550 µs
// of CPU across client, kernel and backend; eight such rows in one statement (unnest of arrays) cost ~210 µs each.
// Under load the issuance path runs the same few statements for many invoices at once, so they are grouped:
//
// - A call is sent as soon as fewer than `maxInFlight` batches of the statement are running (then after one
//   macrotask, so the calls made in the same turn of the event loop go together). Otherwise it waits for a running
//   batch to end and leaves with the next one. Alone, a call is never delayed: batches only form when calls queue.
// - Each caller gets its own row's result and continues only once the batch's statement (its transaction) committed,
//   so what a caller may assume after `await` is exactly what it could assume of a statement of its own.
// - A batch that fails is retried one call at a time: a row that breaks a constraint fails its own caller only,
//   instead of every caller that happened to share its statement.
import { setImmediate } from 'node:timers';

export interface StatementBatcherOptions {
  /** At most this many calls in one statement. */
  maxBatch: number;
  /** Batches of this statement running at once (each takes a connection of the pool). */
  maxInFlight: number;
}

export const DEFAULT_BATCHER_OPTIONS: StatementBatcherOptions = { maxBatch: 32, maxInFlight: 2 };

interface Pending<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * `runBatch` executes the statement for every input and answers one output per input, in the same order (it must
 * throw rather than answer fewer). It is called with one input or many; a one-input batch is also the retry path.
 */
export class StatementBatcher<I, O> {
  private queue: Array<Pending<I, O>> = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(
    private readonly runBatch: (inputs: I[]) => Promise<O[]>,
    private readonly options: StatementBatcherOptions = DEFAULT_BATCHER_OPTIONS,
  ) {
    if (options.maxBatch < 1 || options.maxInFlight < 1) throw new Error('StatementBatcher: maxBatch and maxInFlight must be ≥ 1');
  }

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.inFlight >= this.options.maxInFlight || this.queue.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.execute(batch).finally(() => {
        this.inFlight--;
        this.scheduleFlush();
      });
    }
  }

  private async execute(batch: Array<Pending<I, O>>): Promise<void> {
    let outputs: O[];
    try {
      outputs = await this.runBatch(batch.map((p) => p.input));
      if (outputs.length !== batch.length) throw new Error(`batched statement answered ${outputs.length} rows for ${batch.length} calls`);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // The whole statement rolled back: run each call alone, so only the offending one fails.
      await Promise.all(batch.map((pending) => this.execute([pending])));
      return;
    }
    batch.forEach((pending, index) => pending.resolve(outputs[index] as O));
  }
}
