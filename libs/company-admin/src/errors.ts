// Use-case failures typed by kind, so each delivery (HTTP, CLI) maps them its own way: validation → 422,
// conflict → 409, not_found → 404. Messages are written for operators and never carry secrets.

export type CompanyAdminErrorKind = 'validation' | 'conflict' | 'not_found';

export interface FieldProblem {
  /** Dotted path in the input, snake_case as the API spells it ("address.city_code"). */
  readonly field: string;
  readonly message: string;
}

export class CompanyAdminError extends Error {
  constructor(
    readonly kind: CompanyAdminErrorKind,
    message: string,
    readonly problems: readonly FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'CompanyAdminError';
  }
}

export const validationError = (message: string, problems: readonly FieldProblem[] = []) =>
  new CompanyAdminError('validation', message, problems);
export const conflictError = (message: string) => new CompanyAdminError('conflict', message);
export const notFoundError = (message: string) => new CompanyAdminError('not_found', message);
