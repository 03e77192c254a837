// Service-Signature (SPEC.md "Events", rule 2): `t=<epoch seconds>,v1=<hex HMAC-SHA256 of "{t}.{body}">` keyed with
// the endpoint's secret. The timestamp is inside what is signed, so a captured delivery cannot be replayed later
// with a fresh `t`. Several `v1` may be sent (one per secret) so an endpoint can rotate its secret without a gap.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const DELIVERY_ID_HEADER = 'Service-Delivery-Id';
/** Additive: the event name, so a receiver can route before parsing the body. */
export const EVENT_HEADER = 'Service-Event';

/** The HMAC-SHA256 of `{timestamp}.{body}` (body as its exact bytes; a string is taken as UTF-8). */
export function signatureDigest(secret: string, timestamp: number, body: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

export interface SignatureInput {
  /** One secret, or the current ones during a rotation (one `v1` each). */
  secrets: string | readonly string[];
  body: string | Uint8Array;
  /** Seconds since the epoch; each attempt signs with its own time, so a retry hours later still verifies. */
  timestamp: number;
}

export function signatureHeader({ secrets, body, timestamp }: SignatureInput): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new RangeError(`signature timestamp ${timestamp} is not whole epoch seconds`);
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  if (keys.length === 0) throw new RangeError('a signature needs at least one secret');
  return [`t=${timestamp}`, ...keys.map((secret) => `v1=${signatureDigest(secret, timestamp, body).toString('hex')}`)].join(',');
}

export const epochSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);
