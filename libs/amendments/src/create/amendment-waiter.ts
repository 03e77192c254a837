// The gateway answers an amendment with its outcome when it arrives within a window (200 / 502), else 202: this
// waits, for that bounded window, until the amendment leaves `pending`. The signal is the canceller's job ending (the
// amendments queue's outcome channel); PostgreSQL is the truth, read on each signal, and a slow poll covers a missed one.
import type { AmendmentRecord } from '@talao/persistence';
import type { AmendmentsPort } from './ports.js';

/** Job ends, seen structurally (a JobOutcomeSubscription of @talao/queue-contracts). */
export interface AmendmentJobEvents {
  on(event: 'completed' | 'failed', listener: (args: { jobId: string }) => void): unknown;
}

const FALLBACK_POLL_MS = 1_000;

export class AmendmentWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    private readonly amendments: Pick<AmendmentsPort, 'findById'>,
    events: AmendmentJobEvents | null,
  ) {
    // Also used for invalidations (waitForRecord): the job id is the row's id either way.
    const wake = ({ jobId }: { jobId: string }) => this.waiting.get(jobId)?.forEach((signal) => signal());
    events?.on('completed', wake);
    events?.on('failed', wake);
  }

  /** The amendment once decided, or as it stands when `windowMs` runs out (still `pending`). */
  waitForDecision(id: string, windowMs: number): Promise<AmendmentRecord | null> {
    return this.waitForRecord(id, windowMs, (key) => this.amendments.findById(key));
  }

  /** Any row decided by a job of the amendments queue (jobId = its id), read with `read`, until it leaves `pending`. */
  async waitForRecord<T extends { status: string }>(
    id: string,
    windowMs: number,
    read: (id: string) => Promise<T | null>,
  ): Promise<T | null> {
    const deadline = Date.now() + windowMs;
    let notify: () => void = () => undefined;
    let woken = false;
    const signal = () => {
      woken = true;
      notify();
    };
    const listeners = this.waiting.get(id) ?? new Set();
    this.waiting.set(id, listeners);
    listeners.add(signal);
    try {
      for (;;) {
        woken = false;
        // Registered before the read: a decision before this point is seen by the read, one after by the signal.
        const record = await read(id);
        const left = deadline - Date.now();
        if (!record || record.status !== 'pending' || left <= 0) return record;
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, FALLBACK_POLL_MS));
          notify = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      listeners.delete(signal);
      if (listeners.size === 0) this.waiting.delete(id);
    }
  }
}
