// The signing secret an integrator registers. It is an HMAC key chosen by the client: long enough not to be guessed
// from signed deliveries, short enough to be stored and sent around sanely, printable so it survives a config file.
export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 256;

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** The 422 `detail` for an unacceptable secret, or undefined. */
export function secretRefusal(secret: unknown): string | undefined {
  if (typeof secret !== 'string') return 'secret must be a string';
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    return `secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`;
  }
  if (!PRINTABLE_ASCII.test(secret)) return 'secret must be printable ASCII without spaces';
  return undefined;
}
