// The gateway answers a request that enqueued a job with the job's outcome when it comes within a bounded window
// (201/200/502 instead of 202). This waits, for that window, on the end of one job: the signal is the queue's outcome
// channel (a JobOutcomeSubscription, one per process, one listener here whatever the number of waiting requests), and
// the truth is re-read on each signal. Pub/sub is at most once (a Redis reconnect loses messages), so a slow poll backs
// the signal up: a missed end costs latency, never correctness.

/** Job ends, seen structurally (a JobOutcomeSubscription, or BullMQ's QueueEvents). */
export interface JobEndEvents {
  on(event: 'completed' | 'failed', listener: (args: { jobId: string; returnvalue?: unknown }) => void): unknown;
}

export interface JobEnd {
  outcome: 'completed' | 'failed';
  returnvalue?: unknown;
}

export interface SettlePlan<T> {
  /** Reads the record as it stands (PostgreSQL, the truth). */
  read: () => Promise<T | null>;
  /** Whether the record needs no more waiting. */
  settled: (record: T) => boolean;
  /** The settled record straight from the job's end, when that carries enough of it (no read); undefined: read. */
  fromEnd?: (end: JobEnd) => T | undefined;
  /** The record the caller already holds (it has just written it): the first read is skipped. */
  known?: T;
}

export interface JobEndWaiterOptions {
  /** Poll period for a missed signal: slow, so an overloaded platform's long waits add few reads. */
  fallbackPollMs: number;
  now?: () => number;
}

/** How long the end of a job nobody waited for is remembered (a request registers right after enqueueing). */
const UNCLAIMED_END_MS = 30_000;

type Signal = (end: JobEnd) => void;

export class JobEndWaiter {
  private readonly waiting = new Map<string, Set<Signal>>();
  /** Job id → when it ended with nobody waiting (oldest first), and how. */
  private readonly unclaimedEnds = new Map<string, { at: number; end: JobEnd }>();
  private readonly now: () => number;

  constructor(
    events: JobEndEvents | null,
    private readonly options: JobEndWaiterOptions,
  ) {
    this.now = options.now ?? Date.now;
    const ended = (jobId: string, end: JobEnd) => {
      const listeners = this.waiting.get(jobId);
      if (listeners) listeners.forEach((signal) => signal(end));
      else this.rememberUnclaimedEnd(jobId, end);
    };
    events?.on('completed', ({ jobId, returnvalue }) => ended(jobId, { outcome: 'completed', returnvalue }));
    events?.on('failed', ({ jobId }) => ended(jobId, { outcome: 'failed' }));
  }

  private rememberUnclaimedEnd(jobId: string, end: JobEnd): void {
    const at = this.now();
    this.unclaimedEnds.delete(jobId);
    this.unclaimedEnds.set(jobId, { at, end });
    for (const [id, unclaimed] of this.unclaimedEnds) {
      if (at - unclaimed.at <= UNCLAIMED_END_MS) break;
      this.unclaimedEnds.delete(id);
    }
  }

  /** The record once settled, or as it stands when `windowMs` runs out. */
  async waitUntilSettled<T>(jobId: string, windowMs: number, plan: SettlePlan<T>): Promise<T | null> {
    const deadline = Date.now() + windowMs;
    let notify: () => void = () => undefined;
    let woken = false;
    let fromEnd: T | undefined;
    const listeners = this.waiting.get(jobId) ?? new Set<Signal>();
    this.waiting.set(jobId, listeners);
    const signal: Signal = (end) => {
      woken = true;
      fromEnd ??= plan.fromEnd?.(end);
      notify();
    };
    listeners.add(signal);
    try {
      // Registered before the first read: an end before this point is seen by the read (or remembered), one after by the signal.
      const unclaimed = this.unclaimedEnds.get(jobId);
      if (unclaimed) fromEnd = plan.fromEnd?.(unclaimed.end);
      let known = unclaimed ? undefined : plan.known;
      for (;;) {
        if (fromEnd !== undefined) return fromEnd;
        woken = false;
        const record = known ?? (await plan.read());
        known = undefined;
        const left = deadline - Date.now();
        if (!record || plan.settled(record) || left <= 0) return record;
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, this.options.fallbackPollMs));
          notify = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      listeners.delete(signal);
      if (listeners.size === 0) this.waiting.delete(jobId);
    }
  }
}
