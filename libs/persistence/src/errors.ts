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
