// The gateway answers an amendment with its outcome when it arrives within a window (200 / 502), else 202: this
// waits, for that bounded window, until the amendment (or invalidation) leaves `pending`. The signal is the canceller's
// job ending (the amendments queue's outcome channel; the job id is the row's id); PostgreSQL is the truth, read on
// each signal (@talao/queue-contracts' JobEndWaiter).
import type { AmendmentRecord } from '@talao/persistence';
import { type JobEndEvents, JobEndWaiter } from '@talao/queue-contracts';
import type { AmendmentsPort } from './ports.js';

export type AmendmentJobEvents = JobEndEvents;

const FALLBACK_POLL_MS = 1_000;

export class AmendmentWaiter {
  private readonly jobEnds: JobEndWaiter;

  constructor(
    private readonly amendments: Pick<AmendmentsPort, 'findById'>,
    events: AmendmentJobEvents | null,
  ) {
    this.jobEnds = new JobEndWaiter(events, { fallbackPollMs: FALLBACK_POLL_MS });
  }

  /**
   * The amendment once decided, or as it stands when `windowMs` runs out (still `pending`). `filed`: the row as the
   * request has just written or read it, taken as the first read (no job can have decided a row this request only
   * now enqueued; a job that ended before the wait began is remembered by the waiter, which then reads).
   */
  waitForDecision(filed: AmendmentRecord, windowMs: number): Promise<AmendmentRecord | null> {
    return this.waitForRecord(filed.id, windowMs, (key) => this.amendments.findById(key), filed);
  }

  /** Any row decided by a job of the amendments queue (jobId = its id), read with `read`, until it leaves `pending`. */
  waitForRecord<T extends { status: string }>(
    id: string,
    windowMs: number,
    read: (id: string) => Promise<T | null>,
    known?: T,
  ): Promise<T | null> {
    return this.jobEnds.waitUntilSettled(id, windowMs, {
      read: () => read(id),
      settled: (record) => record.status !== 'pending',
      ...(known ? { known } : {}),
    });
  }
}
