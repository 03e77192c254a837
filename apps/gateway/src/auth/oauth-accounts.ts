// The API-key side of OAuth for the gateway: the consent page proves a key by its text (the same repository read as
// the REST API), and tokens name their key by id (`sub` = company:key id). Keys read by id are remembered for the
// API key cache's TTL, so a revocation ends the tokens minted from that key within seconds, as it ends the key.
import type { AccountKeys, Account, ProvenApiKey } from '@talao/authorization-server';
import type { createPrismaClient } from '@talao/persistence';
import type { ApiKeyLookup, ResolvedApiKey } from './api-key-authentication.js';

type PrismaClient = ReturnType<typeof createPrismaClient>;

export interface ApiKeysById {
  /** The key with its company, or null when unknown; revoked keys are returned (the caller decides). */
  byId(account: Account): Promise<ResolvedApiKey | null>;
  forgetAll(): void;
}

export function apiKeysById(prisma: PrismaClient, ttlMs: number, now: () => number = Date.now): ApiKeysById {
  const entries = new Map<string, { key: ResolvedApiKey | null; expiresAt: number }>();
  return {
    forgetAll: () => entries.clear(),
    byId: async ({ companyId, apiKeyId }) => {
      const cached = entries.get(apiKeyId);
      let key = cached && cached.expiresAt > now() ? cached.key : undefined;
      if (key === undefined) {
        const row = await prisma.apiKey.findUnique({ where: { id: apiKeyId }, include: { company: true } });
        key = row
          ? {
              id: row.id,
              name: row.name,
              prefix: row.prefix,
              environment: row.environment,
              context: row.context,
              revokedAt: row.revokedAt,
              company: { id: row.company.id, taxId: row.company.taxId, legalName: row.company.legalName, tradeName: row.company.tradeName },
            }
          : null;
        if (ttlMs > 0) {
          if (entries.size >= 10_000) entries.delete(entries.keys().next().value as string);
          entries.set(apiKeyId, { key, expiresAt: now() + ttlMs });
        }
      }
      return key && key.company.id === companyId ? key : null;
    },
  };
}

export function oauthAccountKeys(lookup: ApiKeyLookup, byId: ApiKeysById): AccountKeys {
  const proven = (key: ResolvedApiKey): ProvenApiKey => ({
    id: key.id,
    companyId: key.company.id,
    environment: key.environment,
    context: key.context,
    revokedAt: key.revokedAt,
  });
  return {
    resolveKeyText: async (text) => {
      if (!lookup.isWellFormed(text)) return null;
      const key = await lookup.resolve(text);
      return key ? proven(key) : null;
    },
    isUsable: async (account) => {
      const key = await byId.byId(account);
      return !!key && !key.revokedAt && key.context === 'api';
    },
    environmentOf: async (account) => {
      const key = await byId.byId(account);
      if (!key) throw new Error('the account key disappeared while its token was issued');
      return key.environment;
    },
  };
}
