import { QuotaExceededError } from '../errors.js';
import type { IssuingCompany } from '../ports.js';
import { assertProductionQuota, billingPeriod, overageUnitPrice } from './production-quota.js';

const plan = (productionQuota: number | null, overagePrice: string | null) =>
  ({ id: 'c1', productionQuota, overagePrice }) as IssuingCompany;
const usage = (credits: number, inFlight: number) => ({
  usage: { creditsInPeriod: async () => credits },
  invoices: { countInFlight: async () => inFlight },
});
const now = new Date('2026-11-22T12:00:00Z');

describe('production quota', () => {
  it('bills by the calendar month in Brasília time (UTC−3)', () => {
    expect(billingPeriod(new Date('2026-12-01T02:59:59Z'))).toBe('2026-11');
    expect(billingPeriod(new Date('2026-12-01T03:00:00Z'))).toBe('2026-12');
  });

  it('refuses when credits plus in-flight invoices reach the quota and there is no overage price', async () => {
    await expect(assertProductionQuota(usage(3, 1), plan(5, null), 'production', now)).resolves.toBeUndefined();
    const refused = assertProductionQuota(usage(4, 1), plan(5, null), 'production', now);
    await expect(refused).rejects.toBeInstanceOf(QuotaExceededError);
    await expect(refused).rejects.toMatchObject({ quota: 5, used: 5, period: '2026-11' });
  });

  it('never limits homologation, unlimited plans or plans with an overage price', async () => {
    await expect(assertProductionQuota(usage(99, 0), plan(5, null), 'homologation', now)).resolves.toBeUndefined();
    await expect(assertProductionQuota(usage(99, 0), plan(null, null), 'production', now)).resolves.toBeUndefined();
    await expect(assertProductionQuota(usage(99, 0), plan(5, '0.2500'), 'production', now)).resolves.toBeUndefined();
  });

  it('prices a credit at the overage price only beyond the quota', () => {
    expect(overageUnitPrice(plan(5, '0.2500'), 4)).toBeUndefined();
    expect(overageUnitPrice(plan(5, '0.2500'), 5)).toBe('0.2500');
    expect(overageUnitPrice(plan(5, null), 9)).toBeUndefined();
  });
});
