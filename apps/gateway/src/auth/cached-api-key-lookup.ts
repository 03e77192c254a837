// Every /api/v1 request resolves its API key; at issuance rates that read (a Prisma query with its company) was one
// of the largest costs per request. Accepted keys are remembered in-process for a few seconds, by the SHA-256 of the
// whole token (secret included, so a cached entry can only be hit by the exact same credential).
// Revocation: the admin API of this process forgets the cache at once; a revocation elsewhere (another replica, the
// admin CLI, the database) takes effect here within `ttlMs` (API_KEY_CACHE_TTL_MS, default 5 s). Refused keys are
// never cached, so a key just created works at once.
import { createHash } from 'node:crypto';
import type { ApiKeyLookup, ResolvedApiKey } from './api-key-authentication.js';

export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;
/** Bounds memory against a flood of distinct valid keys; the oldest entries go first. */
const MAX_ENTRIES = 10_000;

export interface ForgettableApiKeyLookup extends ApiKeyLookup {
  /** Drops every remembered key (after a revocation through this process). */
  forgetAll(): void;
}

export function cachedApiKeyLookup(inner: ApiKeyLookup, ttlMs: number, now: () => number = Date.now): ForgettableApiKeyLookup {
  const entries = new Map<string, { key: ResolvedApiKey; expiresAt: number }>();
  // Concurrent first requests with the same key share one database read.
  const pending = new Map<string, Promise<ResolvedApiKey | null>>();
  let generation = 0;
  return {
    isWellFormed: (token) => inner.isWellFormed(token),
    forgetAll: () => {
      entries.clear();
      pending.clear();
      generation++;
    },
    resolve: async (token) => {
      if (ttlMs <= 0) return inner.resolve(token);
      const digest = createHash('sha256').update(token).digest('base64');
      const cached = entries.get(digest);
      if (cached && cached.expiresAt > now()) return cached.key;
      if (cached) entries.delete(digest);
      const inFlight = pending.get(digest);
      if (inFlight) return inFlight;
      const startedIn = generation;
      const read = inner.resolve(token).then(
        (key) => {
          if (pending.get(digest) === read) pending.delete(digest);
          // A revocation while the read ran must not be undone by caching its (possibly older) answer.
          if (key && !key.revokedAt && startedIn === generation) {
            if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
            entries.set(digest, { key, expiresAt: now() + ttlMs });
          }
          return key;
        },
        (error: unknown) => {
          if (pending.get(digest) === read) pending.delete(digest);
          throw error;
        },
      );
      pending.set(digest, read);
      return read;
    },
  };
}
