// API keys: created with the secret shown once, resolved on every request, at most three active per company.
import { timingSafeEqual } from 'node:crypto';
import type { ApiKey, ApiKeyContext, Company, Environment, PrismaClient } from '../generated/prisma/client.js';
import { ActiveKeyLimitError, CompanyNotFoundError } from '../errors.js';
import { isUuid } from '../uuid.js';
import { generateApiKey, hashApiKey, parseApiKey } from './api-key-format.js';

export const MAX_ACTIVE_KEYS_PER_COMPANY = 3;
/** lastUsedAt is a hint for operators, not an audit log: refreshing it at most once a minute spares a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface NewApiKey {
  companyId: string;
  name: string;
  environment: Environment;
  context: ApiKeyContext;
}

export type ResolvedApiKey = ApiKey & { company: Company };

export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** `secret` is the full key string: return it to the caller once; only its hash is stored. */
  async create(input: NewApiKey): Promise<{ apiKey: ApiKey; secret: string }> {
    if (!isUuid(input.companyId)) throw new CompanyNotFoundError(input.companyId);
    const generated = generateApiKey(input.environment);
    const apiKey = await this.prisma.$transaction(async (tx) => {
      // The company row lock serialises concurrent creations for one company, so the count below cannot go stale.
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM companies WHERE id = ${input.companyId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw new CompanyNotFoundError(input.companyId);
      const active = await tx.apiKey.count({ where: { companyId: input.companyId, revokedAt: null } });
      if (active >= MAX_ACTIVE_KEYS_PER_COMPANY) throw new ActiveKeyLimitError(input.companyId, MAX_ACTIVE_KEYS_PER_COMPANY);
      return tx.apiKey.create({
        data: {
          companyId: input.companyId,
          name: input.name,
          environment: input.environment,
          context: input.context,
          prefix: generated.prefix,
          secretHash: generated.secretHash,
        },
      });
    });
    return { apiKey, secret: generated.key };
  }

  /** The active key and its company, or null (malformed, unknown, wrong secret, revoked). */
  async resolve(key: string): Promise<ResolvedApiKey | null> {
    const parsed = parseApiKey(key);
    if (!parsed) return null;
    const found = await this.prisma.apiKey.findUnique({ where: { prefix: parsed.prefix }, include: { company: true } });
    if (!found || found.revokedAt !== null || found.environment !== parsed.environment) return null;
    const expected = Buffer.from(found.secretHash, 'hex');
    const actual = Buffer.from(hashApiKey(key), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
    return this.touch(found);
  }

  private async touch(found: ResolvedApiKey): Promise<ResolvedApiKey> {
    const now = new Date();
    const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (found.lastUsedAt && found.lastUsedAt > threshold) return found;
    // Conditional, so concurrent requests in the same minute write once between them.
    const { count } = await this.prisma.apiKey.updateMany({
      where: { id: found.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: threshold } }] },
      data: { lastUsedAt: now },
    });
    return count === 1 ? { ...found, lastUsedAt: now } : found;
  }

  /** False when the key is unknown or already revoked. */
  async revoke(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { count } = await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    return count === 1;
  }

  async findById(id: string): Promise<ApiKey | null> {
    if (!isUuid(id)) return null;
    return this.prisma.apiKey.findUnique({ where: { id } });
  }

  /** Newest first, revoked keys included (they show when a key stopped working). */
  async listForCompany(companyId: string): Promise<ApiKey[]> {
    if (!isUuid(companyId)) return [];
    return this.prisma.apiKey.findMany({ where: { companyId }, orderBy: { createdAt: 'desc' } });
  }
}
