// Typed failures of the issuance use cases. No HTTP here: each delivery (gateway controller, CLI) maps `kind` to its
// own language (400, 402, 404, 409, 422, 501).
import type { FieldError } from '@talao/fiscal-model';

export type IssuanceErrorKind =
  | 'validation'
  | 'not_configured'
  | 'quota_exceeded'
  | 'number_conflict'
  | 'not_found'
  | 'invalid_state'
  | 'already_reissued'
  | 'not_implemented';

export abstract class IssuanceError extends Error {
  abstract readonly kind: IssuanceErrorKind;
}

/** The request breaks a field rule (422); `errors[0]` is the first problem, in the fiscal-model error shape. */
export class InvoiceValidationError extends IssuanceError {
  readonly kind = 'validation';
  constructor(readonly errors: readonly FieldError[]) {
    super(errors[0]?.message ?? 'invalid invoice request');
  }
}

/** The company cannot issue this document yet (400); `missing` names each missing or unusable item. */
export class IssuerNotConfiguredError extends IssuanceError {
  readonly kind = 'not_configured';
  constructor(readonly missing: readonly string[]) {
    super(`The company is not ready to issue: missing ${missing.join(', ')}`);
  }
}

/** The production quota of the month is used up and the plan has no overage price (402). */
export class QuotaExceededError extends IssuanceError {
  readonly kind = 'quota_exceeded';
  constructor(
    readonly quota: number,
    readonly used: number,
    readonly period: string,
  ) {
    super(
      `The plan's production quota of ${quota} documents for ${period} is used up (${used} used or in flight) and the plan has no overage price`,
    );
  }
}

/** The number given in the request is already used in that series (409). */
export class NumberConflictError extends IssuanceError {
  readonly kind = 'number_conflict';
  constructor(
    readonly series: number,
    readonly number: number,
    readonly invalidated = false,
  ) {
    super(`Number ${number} of series ${series} ${invalidated ? 'was invalidated (inutilização) and is never issued' : 'is already used'}`);
  }
}

export class InvoiceNotFoundError extends IssuanceError {
  readonly kind = 'not_found';
  constructor(readonly invoiceId: string) {
    super(`Invoice ${invoiceId} not found`);
  }
}

/** The operation does not apply in the invoice's current status (409), e.g. reissuing an issued invoice. */
export class InvalidInvoiceStateError extends IssuanceError {
  readonly kind = 'invalid_state';
  constructor(
    readonly invoiceId: string,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
}

/** The attempt was reissued already (409): an attempt is reissued once; `replacementId` is the invoice that did. */
export class AlreadyReissuedError extends IssuanceError {
  readonly kind = 'already_reissued';
  constructor(
    readonly invoiceId: string,
    readonly replacementId: string,
  ) {
    super(
      `Invoice ${invoiceId} was already reissued as ${replacementId}; an attempt is reissued once (reissue ${replacementId} if it failed too)`,
    );
  }
}

/** The platform knows the document type asked for but cannot sign it (501); `documentType` as the request named it. */
export class SigningNotImplementedError extends IssuanceError {
  readonly kind = 'not_implemented';
  constructor(
    readonly documentType: string,
    readonly description: string,
  ) {
    super(`Signing ${description} (document_type ${documentType}) is not implemented; this API issues nfe and nfse`);
  }
}
