// The reference verification of SPEC.md "Events", rule 2, as a receiver runs it (the lib README carries the same
// logic as copy-paste snippets). The header comes from the network, so it is parsed within fixed bounds: a hostile
// header costs at most MAX_HEADER_LENGTH characters of work and MAX_SIGNATURES HMAC comparisons.
import { timingSafeEqual } from 'node:crypto';
import { signatureDigest } from './sign.js';

/** Seconds a signature's `t` may be away from the receiver's clock, either way (a replay after 5 minutes fails). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
const MAX_HEADER_LENGTH = 1024;
const MAX_SIGNATURES = 8;
const TIMESTAMP = /^\d{1,12}$/;
const HEX_DIGEST = /^[0-9a-fA-F]{1,128}$/;

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

/** `t` once and one to MAX_SIGNATURES `v1`; other schemes (`v0`, a future `v2`) are skipped, not refused. */
export function parseSignatureHeader(header: string): ParsedHeader | string {
  if (header.length > MAX_HEADER_LENGTH) return `longer than ${MAX_HEADER_LENGTH} characters`;
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 1) return 'each element must be key=value';
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) return 't given twice';
      if (!TIMESTAMP.test(value)) return 't must be epoch seconds';
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!HEX_DIGEST.test(value) || value.length % 2 !== 0) return 'v1 must be hexadecimal';
      if (signatures.length === MAX_SIGNATURES) return `more than ${MAX_SIGNATURES} v1 signatures`;
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined) return 'no t';
  if (signatures.length === 0) return 'no v1';
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
