// When a failed delivery is tried again (SPEC.md "Events", rule 4: 6 retries, waits from 30 s up to 6 h). The waits
// are multiples of a base delay, so a test or a local run can shrink the whole schedule (base 10 ms: the six waits
// take under 13 s) without a different code path. Jitter spreads the retries of a burst of deliveries that failed
// together (an endpoint down for a minute) instead of sending them back in one wave.

/** Retry n waits RETRY_DELAY_MULTIPLES[n - 1] × base: 30 s, 2 min, 10 min, 1 h, 3 h, 6 h with the default base. */
export const RETRY_DELAY_MULTIPLES = [1, 4, 20, 120, 360, 720] as const;
export const WEBHOOK_MAX_RETRIES = RETRY_DELAY_MULTIPLES.length;
/** The first attempt and the retries: after the 7th attempt fails, the delivery is given up. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_MAX_RETRIES + 1;
export const DEFAULT_RETRY_BASE_DELAY_MS = 30_000;
/** Each wait is moved by up to ±10%, then kept within [1, 720] × base (30 s to 6 h), the bounds the spec states. */
export const RETRY_JITTER = 0.1;

export interface RetryScheduleOptions {
  baseDelayMs?: number;
}

/**
 * The time of the next attempt after attempt number `attempt` (1 = the first attempt) failed at `now`, or null when
 * that was the last one (the delivery is given up). `random` returns a number in [0, 1) like Math.random.
 */
export function nextAttemptAt(
  attempt: number,
  now: Date,
  random: () => number = Math.random,
  { baseDelayMs = DEFAULT_RETRY_BASE_DELAY_MS }: RetryScheduleOptions = {},
): Date | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number from 1, got ${attempt}`);
  if (!(baseDelayMs > 0)) throw new RangeError(`baseDelayMs must be positive, got ${baseDelayMs}`);
  if (attempt > WEBHOOK_MAX_RETRIES) return null;
  const nominal = RETRY_DELAY_MULTIPLES[attempt - 1]! * baseDelayMs;
  const jittered = nominal * (1 + RETRY_JITTER * (2 * random() - 1));
  const shortest = RETRY_DELAY_MULTIPLES[0] * baseDelayMs;
  const longest = RETRY_DELAY_MULTIPLES[WEBHOOK_MAX_RETRIES - 1]! * baseDelayMs;
  return new Date(now.getTime() + Math.round(Math.min(Math.max(jittered, shortest), longest)));
}
