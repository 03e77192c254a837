import { RETRY_DELAY_MULTIPLES, WEBHOOK_MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.js';

const now = new Date('2026-11-25T12:00:00Z');
const waitAfter = (attempt: number, random: number, baseDelayMs?: number) => {
  const next = nextAttemptAt(attempt, now, () => random, baseDelayMs === undefined ? {} : { baseDelayMs });
  return next === null ? null : next.getTime() - now.getTime();
};
const SECOND = 1000;

describe('retry schedule', () => {
  it('waits 30 s, 2 min, 10 min, 1 h, 3 h and 6 h without jitter (random 0.5)', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => waitAfter(attempt, 0.5))).toEqual(
      [30, 120, 600, 3600, 10_800, 21_600].map((s) => s * SECOND),
    );
  });

  it('gives up after the 6th retry: the 7th attempt has no successor', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(7);
    expect(waitAfter(6, 0.5)).not.toBeNull();
    expect(waitAfter(7, 0.5)).toBeNull();
    expect(waitAfter(8, 0.5)).toBeNull();
  });

  it('moves each wait by at most ±10%, never below 30 s nor above 6 h', () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const nominal = RETRY_DELAY_MULTIPLES[attempt - 1]! * 30 * SECOND;
      for (const random of [0, 0.001, 0.25, 0.5, 0.75, 0.999_999]) {
        const wait = waitAfter(attempt, random)!;
        expect(wait).toBeGreaterThanOrEqual(Math.max(nominal * 0.9, 30 * SECOND));
        expect(wait).toBeLessThanOrEqual(Math.min(nominal * 1.1, 6 * 3600 * SECOND));
      }
    }
    expect(waitAfter(1, 0)).toBe(30 * SECOND); // clamped up to the stated minimum
    expect(waitAfter(6, 0.999_999)).toBe(6 * 3600 * SECOND); // clamped down to the stated maximum
    expect(waitAfter(4, 0)).toBe(3240 * SECOND);
    expect(waitAfter(4, 0.999_999)).toBeCloseTo(3960 * SECOND, -1);
  });

  it('spreads a burst: Math.random gives distinct waits over the jitter range', () => {
    const waits = Array.from({ length: 500 }, () => nextAttemptAt(3, now)!.getTime() - now.getTime());
    expect(new Set(waits).size).toBeGreaterThan(400);
    expect(Math.min(...waits)).toBeLessThan(560 * SECOND);
    expect(Math.max(...waits)).toBeGreaterThan(640 * SECOND);
  });

  it('scales with the base delay, so tests run the schedule in milliseconds', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => waitAfter(attempt, 0.5, 10))).toEqual([10, 40, 200, 1200, 3600, 7200]);
  });

  it('refuses an attempt number below 1 or not whole, and a base delay that is not positive', () => {
    expect(() => nextAttemptAt(0, now)).toThrow(RangeError);
    expect(() => nextAttemptAt(1.5, now)).toThrow(RangeError);
    expect(() => nextAttemptAt(1, now, Math.random, { baseDelayMs: 0 })).toThrow(RangeError);
  });
});
