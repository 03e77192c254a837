import { QuotaExceededError } from '../errors.js';
import type { IssuingCompany } from '../ports.js';
import { admitWithinQuota, billingPeriod, overageUnitPrice, quotaCaps } from './production-quota.js';

const plan = (productionQuota: number | null, overagePrice: string | null) =>
  ({ id: 'c1', productionQuota, overagePrice }) as IssuingCompany;

describe('production quota', () => {
  it('bills by the calendar month in Brasília time (UTC−3)', () => {
    expect(billingPeriod(new Date('2026-12-01T02:59:59Z'))).toBe('2026-11');
    expect(billingPeriod(new Date('2026-12-01T03:00:00Z'))).toBe('2026-12');
  });

  it('refuses when credits plus in-flight invoices reach the quota', () => {
    const admit = admitWithinQuota(plan(5, null), '2026-11');
    expect(() => admit({ credits: 3, inFlight: 1 })).not.toThrow();
    expect(() => admit({ credits: 4, inFlight: 1 })).toThrow(QuotaExceededError);
    const refusal = (() => {
      try {
        admit({ credits: 4, inFlight: 1 });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({ quota: 5, used: 5, period: '2026-11' });
  });

  it('caps production only, on plans with a quota and no overage price', () => {
    expect(quotaCaps(plan(5, null), 'production')).toBe(true);
    expect(quotaCaps(plan(5, null), 'homologation')).toBe(false);
    expect(quotaCaps(plan(null, null), 'production')).toBe(false);
    expect(quotaCaps(plan(5, '0.2500'), 'production')).toBe(false);
  });

  it('prices a credit at the overage price only beyond the quota', () => {
    expect(overageUnitPrice(plan(5, '0.2500'), 4)).toBeUndefined();
    expect(overageUnitPrice(plan(5, '0.2500'), 5)).toBe('0.2500');
    expect(overageUnitPrice(plan(5, null), 9)).toBeUndefined();
  });
});
