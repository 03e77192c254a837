// Validating a request in a spec: the outcome, its errors or its value. By default for a normal-regime issuer (of
// São Paulo) on a day of 2026, so that the IBS/CBS group is required as it is from then on.
import type { FieldError } from '../request/field-error.js';
import type { IssuerProfile } from '../request/issuer-profile.js';
import { validateInvoiceRequest } from '../request/validate-invoice-request.js';
import { sampleIssuer } from './samples.js';

export const VALIDATION_DAY = new Date('2026-03-10T15:00:00Z');
const NORMAL_REGIME = sampleIssuer('normal');

export function validateSample(body: unknown, issuer: IssuerProfile = NORMAL_REGIME, now = VALIDATION_DAY) {
  return validateInvoiceRequest(body, issuer, { now });
}

/** Every error of a request that must fail validation. */
export function requestErrors(body: unknown, issuer?: IssuerProfile, now?: Date): FieldError[] {
  const result = validateSample(body, issuer, now);
  if (result.ok) throw new Error('expected a validation failure');
  return result.errors;
}

/** The code and field of the first error of a request that must fail validation. */
export function firstRequestError(body: unknown, issuer?: IssuerProfile, now?: Date): Pick<FieldError, 'code' | 'field'> {
  const [first] = requestErrors(body, issuer, now);
  return { code: first!.code, field: first!.field };
}

/** The validated request of a body that must pass. */
export function validRequest(body: unknown, issuer?: IssuerProfile, now?: Date) {
  const result = validateSample(body, issuer, now);
  if (!result.ok) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.value;
}
