import { NFE_CANCELLATION_WINDOW_HOURS, nfeCancellationWindowMs, withinCancellationWindow } from './cancellation-rules.js';

describe('NF-e cancellation window', () => {
  const authorizedAt = new Date('2026-11-20T12:00:00Z');
  const after = (hours: number) => new Date(authorizedAt.getTime() + hours * 3_600_000);

  it('is 24 h from the authorization by default, the last millisecond included', () => {
    expect(NFE_CANCELLATION_WINDOW_HOURS.default).toBe(24);
    expect(withinCancellationWindow('SP', authorizedAt, after(24))).toBe(true);
    expect(withinCancellationWindow('SP', authorizedAt, new Date(after(24).getTime() + 1))).toBe(false);
    expect(withinCancellationWindow('SP', authorizedAt, after(25))).toBe(false);
  });

  it('takes a state’s own window from the table when it has one', () => {
    const table = NFE_CANCELLATION_WINDOW_HOURS.byState as Record<string, number>;
    table['XX'] = 168;
    try {
      expect(nfeCancellationWindowMs('XX')).toBe(168 * 3_600_000);
      expect(withinCancellationWindow('XX', authorizedAt, after(100))).toBe(true);
      expect(withinCancellationWindow('SP', authorizedAt, after(100))).toBe(false);
    } finally {
      delete table['XX'];
    }
  });
});
