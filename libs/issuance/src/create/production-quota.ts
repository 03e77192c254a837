// The production quota: credits are charged per authorized production document in a calendar month (Brasília time;
// Brazil has kept UTC−3 without daylight saving since 2019). Homologation is free and unlimited.
import { QuotaExceededError } from '../errors.js';
import type { EnvironmentName, InvoicesPort, IssuingCompany, UsageLedgerPort } from '../ports.js';

const BRASILIA_OFFSET_MS = -3 * 3_600_000;

/** "YYYY-MM" of the month, in Brasília time, that a charge at `at` belongs to. */
export function billingPeriod(at: Date): string {
  return new Date(at.getTime() + BRASILIA_OFFSET_MS).toISOString().slice(0, 7);
}

/**
 * Refuses a production issuance when the month's credits plus the invoices still in flight reach the quota and the
 * plan has no overage price. In-flight invoices count, because each may still be authorized and charged: without
 * them a burst of requests could overshoot the quota.
 */
export async function assertProductionQuota(
  deps: { invoices: Pick<InvoicesPort, 'countInFlight'>; usage: Pick<UsageLedgerPort, 'creditsInPeriod'> },
  company: IssuingCompany,
  environment: EnvironmentName,
  now: Date,
): Promise<void> {
  if (environment !== 'production' || company.productionQuota === null || company.overagePrice !== null) return;
  const period = billingPeriod(now);
  const [credits, inFlight] = await Promise.all([
    deps.usage.creditsInPeriod(company.id, environment, period),
    deps.invoices.countInFlight(company.id, environment),
  ]);
  if (credits + inFlight >= company.productionQuota) throw new QuotaExceededError(company.productionQuota, credits + inFlight, period);
}

/** The unit price of a credit charged now: the overage price once the quota is used up, else none (in the plan). */
export function overageUnitPrice(company: IssuingCompany, creditsBefore: number): string | undefined {
  if (company.productionQuota === null || company.overagePrice === null) return undefined;
  return creditsBefore >= company.productionQuota ? company.overagePrice.toString() : undefined;
}
