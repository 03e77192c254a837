import { randomUUID } from 'node:crypto';
import { offsetOf, schedulerIdOf } from './schedules.js';

describe('received-sync schedules', () => {
  const HOUR = 3_600_000;

  it('names one scheduler per company and environment, stably', () => {
    const id = randomUUID();
    expect(schedulerIdOf(id, 'production')).toBe(`rs-${id}-p`);
    expect(schedulerIdOf(id, 'homologation')).not.toBe(schedulerIdOf(id, 'production'));
  });

  it('gives each company the same offset every time, spread over the interval', () => {
    const ids = Array.from({ length: 10_000 }, () => randomUUID());
    const offsets = ids.map((id) => offsetOf(id, 'production', HOUR));
    expect(ids.map((id) => offsetOf(id, 'production', HOUR))).toEqual(offsets);
    expect(offsets.every((o) => o >= 0 && o < HOUR)).toBe(true);
    // Six 10-minute buckets hold about a sixth each: no thundering herd at the top of the hour.
    const buckets = Array.from({ length: 6 }, (_, b) => offsets.filter((o) => Math.floor(o / (HOUR / 6)) === b).length);
    for (const count of buckets) expect(Math.abs(count - 10_000 / 6)).toBeLessThan(200);
  });
});
