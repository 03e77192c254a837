// The fingerprint an Idempotency-Key is bound to: the operation and its target plus the body as canonical JSON (object
// keys sorted at every level, no whitespace), hashed with SHA-256. Two bodies that differ only in key order or
// formatting are the same request; any other difference is a different request (422 on replay).
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** 64 hex characters: SHA-256 of "<operation>\n<canonical body>". */
export function requestFingerprint(operation: string, body: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(body)}`)
    .digest('hex');
}
