// Domain errors of the persistence layer, so callers map them to HTTP answers without parsing database messages.

export class ActiveKeyLimitError extends Error {
  override readonly name = 'ActiveKeyLimitError';
  constructor(
    readonly companyId: string,
    readonly limit: number,
  ) {
    super(`company ${companyId} already has ${limit} active API keys; revoke one first`);
  }
}

export class CompanyNotFoundError extends Error {
  override readonly name = 'CompanyNotFoundError';
  constructor(readonly companyId: string) {
    super(`company ${companyId} does not exist`);
  }
}

export class CompanyTaxIdTakenError extends Error {
  override readonly name = 'CompanyTaxIdTakenError';
  constructor(readonly taxId: string) {
    super(`a company with tax id ${taxId} already exists`);
  }
}

/** Prisma's codes for a pool with no connection to give in time: P2024 (a query), P2028 (starting a transaction). */
const POOL_EXHAUSTED_CODES = new Set(['P2024', 'P2028']);

/**
 * The database had no connection to give within the wait (every one busy: the platform is overloaded), as opposed to
 * a failed statement. Nothing was done; the same request can simply be sent again later. Recognized from Prisma's
 * codes and from node-postgres's pool (the pg-based repositories), whose only signal is its message.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && POOL_EXHAUSTED_CODES.has(code)) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.startsWith('timeout exceeded when trying to connect');
}
