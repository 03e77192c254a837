// The production quota: credits are charged per authorized production document in a calendar month (Brasília time;
// Brazil has kept UTC−3 without daylight saving since 2019). Homologation is free and unlimited.
import { QuotaExceededError } from '../errors.js';
import type { EnvironmentName, IssuingCompany } from '../ports.js';

const BRASILIA_OFFSET_MS = -3 * 3_600_000;

/** "YYYY-MM" of the month, in Brasília time, that a charge at `at` belongs to. */
export function billingPeriod(at: Date): string {
  return new Date(at.getTime() + BRASILIA_OFFSET_MS).toISOString().slice(0, 7);
}

/** Whether the company's production issuance is capped: production, a quota, and no overage price to charge past it. */
export function quotaCaps(company: IssuingCompany, environment: EnvironmentName): boolean {
  return environment === 'production' && company.productionQuota !== null && company.overagePrice === null;
}

/**
 * The check of a capped plan, given the month's credits and the invoices still in flight: in-flight invoices count,
 * because each may still be authorized and charged. Throws QuotaExceededError when they reach the quota. The counts
 * and the insert that follows are serialised per company by the repository (createProcessingWithinQuota).
 */
export function admitWithinQuota(company: IssuingCompany, period: string): (usage: { credits: number; inFlight: number }) => void {
  return ({ credits, inFlight }) => {
    const quota = company.productionQuota;
    if (quota !== null && credits + inFlight >= quota) throw new QuotaExceededError(quota, credits + inFlight, period);
  };
}

/** The unit price of a credit charged now: the overage price once the quota is used up, else none (in the plan). */
export function overageUnitPrice(company: IssuingCompany, creditsBefore: number): string | undefined {
  if (company.productionQuota === null || company.overagePrice === null) return undefined;
  return creditsBefore >= company.productionQuota ? company.overagePrice.toString() : undefined;
}
