// Credentials a server accepted, remembered so that the next call of the same agent costs no second check: kept by
// their SHA-256 (a dump of the memory yields no usable credential), each for a bounded time, at most `maxEntries` of
// them (the oldest forgotten first). Refusals are never remembered: a fixed credential works at once.
import { createHash } from 'node:crypto';

export interface AcceptedCredentialsOptions {
  /** How long an acceptance is trusted (default 30 s). */
  readonly maxAgeMs?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export class AcceptedCredentials<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: AcceptedCredentialsOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** What was accepted for `credential`, while its time lasts. */
  recall(credential: string): T | undefined {
    const digest = digestOf(credential);
    const entry = this.entries.get(digest);
    if (entry && entry.until > this.now()) return entry.value;
    if (entry) this.entries.delete(digest);
    return undefined;
  }

  /** Remembers the acceptance for `maxAgeMs`, or until `notAfter` (epoch ms) when that comes first. */
  remember(credential: string, value: T, notAfter = Number.POSITIVE_INFINITY): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(digestOf(credential), { value, until: Math.min(this.now() + this.maxAgeMs, notAfter) });
  }
}

const digestOf = (credential: string): string => createHash('sha256').update(credential).digest('base64');
