// The reference verification of SPEC.md "Events", rule 2, as a receiver runs it (the lib README carries the same
// rules as copy-paste snippets, and a test holds all three to the same answers). The header comes from the network,
// so its work is bounded by its length: at most MAX_HEADER_LENGTH characters, hence at most 14 `v1` to compare.
import { timingSafeEqual } from 'node:crypto';
import { signatureDigest } from './sign.js';

/** Seconds a signature's `t` may be away from the receiver's clock, either way (a replay after 5 minutes fails). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
const MAX_HEADER_LENGTH = 1024;
const TIMESTAMP = /^[0-9]{1,12}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
/** HTTP's optional whitespace (spaces and tabs) around an element: `t=1, v1=…` reads as `t=1,v1=…`. */
const OPTIONAL_WHITESPACE = /^[ \t]+|[ \t]+$/g;

export type VerificationFailure = 'missing' | 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

export type VerificationResult = { ok: true; timestamp: number } | { ok: false; reason: VerificationFailure; detail: string };

export interface VerificationInput {
  /** The Service-Signature header as received (Node gives a string; an array means it was sent twice). */
  header: string | readonly string[] | null | undefined;
  /** The raw request body, exactly the bytes received: a re-serialised JSON object will not verify. */
  body: string | Uint8Array;
  /** The endpoint's secret, or the old and the new one while rotating. */
  secrets: string | readonly string[];
  now?: Date;
  toleranceSeconds?: number;
}

interface ParsedHeader {
  timestamp: number;
  signatures: Buffer[];
}

const refuse = (reason: VerificationFailure, detail: string): VerificationResult => ({ ok: false, reason, detail });

/**
 * Comma-separated `key=value` elements (spaces and tabs around each ignored): `t` exactly once (epoch seconds), and
 * the `v1` values that are 64 hexadecimal digits (any other `v1` cannot match and is skipped, as are other keys:
 * `v0`, a future `v2`).
 */
export function parseSignatureHeader(header: string): ParsedHeader | string {
  if (header.length > MAX_HEADER_LENGTH) return `longer than ${MAX_HEADER_LENGTH} characters`;
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key = '', ...rest] = part.replace(OPTIONAL_WHITESPACE, '').split('=');
    const value = rest.join('=');
    if (key === 't') {
      if (timestamp !== undefined) return 't given twice';
      if (!TIMESTAMP.test(value)) return 't must be epoch seconds';
      timestamp = Number(value);
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined) return 'no t';
  if (signatures.length === 0) return 'no v1 of 64 hexadecimal digits';
  return { timestamp, signatures };
}

export function verifyWebhookSignature({
  header,
  body,
  secrets,
  now = new Date(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
}: VerificationInput): VerificationResult {
  if (header === null || header === undefined || header === '') return refuse('missing', 'no Service-Signature header');
  if (typeof header !== 'string') return refuse('malformed', 'Service-Signature sent more than once');
  const parsed = parseSignatureHeader(header);
  if (typeof parsed === 'string') return refuse('malformed', `Service-Signature: ${parsed}`);
  const skew = Math.abs(Math.floor(now.getTime() / 1000) - parsed.timestamp);
  if (skew > toleranceSeconds) return refuse('timestamp_out_of_tolerance', `t is ${skew} s from now (at most ${toleranceSeconds} s)`);
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  for (const secret of keys) {
    const expected = signatureDigest(secret, parsed.timestamp, body);
    // The length check first: timingSafeEqual throws on buffers of different lengths.
    if (parsed.signatures.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) {
      return { ok: true, timestamp: parsed.timestamp };
    }
  }
  return refuse('no_matching_signature', 'no v1 matches the body signed with the secret');
}
