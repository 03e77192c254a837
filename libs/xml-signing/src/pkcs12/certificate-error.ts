export type CertificateErrorCode =
  | 'WRONG_PASSWORD'
  | 'INVALID_PKCS12'
  | 'NO_PRIVATE_KEY'
  | 'NO_CERTIFICATE'
  /** The file asks for more key-derivation work than any real A1 needs (see MAX_KDF_ITERATIONS). */
  | 'KEY_DERIVATION_TOO_COSTLY';

/** A PKCS#12 (A1 certificate) that cannot be used; `code` is stable, `message` is for humans. */
export class CertificateError extends Error {
  override readonly name = 'CertificateError';

  constructor(
    readonly code: CertificateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
