import { Redis } from 'ioredis';
import {
  ApiKeysRepository,
  CertificateVault,
  CertificatesRepository,
  CompaniesRepository,
  createPrismaClient,
  parseApiKey,
} from '@talao/persistence';
import type { CompanyAdminPorts } from '@talao/company-admin';
import type { GatewayConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import { apiKeysById, type ApiKeysById } from './auth/oauth-accounts.js';
import { cachedApiKeyLookup, DEFAULT_API_KEY_CACHE_TTL_MS, type ForgettableApiKeyLookup } from './auth/cached-api-key-lookup.js';
import { readCertificateTrustBundle } from './certificate-trust-bundle.js';
import { PlatformQueues } from './queues/platform-queues.js';

type PrismaClient = ReturnType<typeof createPrismaClient>;

/** API_KEY_CACHE_TTL_MS: how long an accepted key is trusted without a read (0 turns the cache off). */
function apiKeyCacheTtlMs(raw: string | undefined): number {
  const text = raw?.trim();
  if (!text) return DEFAULT_API_KEY_CACHE_TTL_MS;
  if (!/^\d+$/.test(text)) throw new Error('API_KEY_CACHE_TTL_MS must be a non-negative integer (milliseconds)');
  return Number(text);
}

/**
 * The gateway's connections and repositories, created once per process and closed on shutdown. Plain objects,
 * handed to Nest as values, so the same wiring serves main.ts and the in-process integration tests.
 */
export class GatewayResources {
  readonly prisma: PrismaClient;
  readonly redis: Redis;
  /** Every queue of the platform, for the queue dashboard and /metrics (queue depth). */
  readonly queues: PlatformQueues;
  readonly companyAdmin: CompanyAdminPorts;
  readonly apiKeyLookup: ForgettableApiKeyLookup;
  /** API keys by id, for OAuth access tokens (which name their key by id). */
  readonly apiKeysById: ApiKeysById;
  readonly certificateVault: CertificateVault;
  readonly companies: CompaniesRepository;
  private readonly configurationListeners = new Set<() => void>();

  constructor(config: GatewayConfig, logger: Logger) {
    this.prisma = createPrismaClient(config.databaseUrl);
    this.redis = new Redis(config.redisUrl, {
      // Fail fast rather than queue while Redis is away: rate limits fail open, readiness reports it at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
    });
    let lastRedisError = 0;
    this.redis.on('error', (error: Error) => {
      if (Date.now() - lastRedisError < 10_000) return;
      lastRedisError = Date.now();
      logger.warn({ error: error.message }, 'redis connection error');
    });
    this.queues = new PlatformQueues(config, this.redis);
    this.companies = new CompaniesRepository(this.prisma);
    const apiKeys = new ApiKeysRepository(this.prisma);
    this.certificateVault = new CertificateVault(config.certificateEncryptionKey);
    const certificates = new CertificatesRepository(this.prisma, this.certificateVault);
    const certificateTrustAnchorsPem = readCertificateTrustBundle(config.certificateTrustBundleFile);
    if (certificateTrustAnchorsPem.length === 0) {
      logger.info('no CERTIFICATE_TRUST_BUNDLE_FILE: certificate uploads accept the test CA only (a homologation stack)');
    }
    this.companyAdmin = { companies: this.companies, apiKeys, certificates, certificateTrustAnchorsPem };
    this.apiKeyLookup = cachedApiKeyLookup(
      { isWellFormed: (key) => parseApiKey(key) !== null, resolve: (key) => apiKeys.resolve(key) },
      apiKeyCacheTtlMs(process.env.API_KEY_CACHE_TTL_MS),
    );
    this.apiKeysById = apiKeysById(this.prisma, apiKeyCacheTtlMs(process.env.API_KEY_CACHE_TTL_MS));
  }

  /** Called when companies, certificates or keys change, to drop what this process cached of them. */
  onConfigurationChanged(listener: () => void): void {
    this.configurationListeners.add(listener);
  }

  /** An operator changed a company, its certificate or its keys through this process: caches forget at once. */
  configurationChanged(): void {
    this.apiKeyLookup.forgetAll();
    this.apiKeysById.forgetAll();
    for (const listener of this.configurationListeners) listener();
  }

  /**
   * PING, first waiting (within the same budget) for a connection in progress: right after boot, or after a
   * reconnect, the client is still connecting and would otherwise be reported unavailable.
   */
  async pingRedis(timeoutMs: number): Promise<void> {
    if (this.redis.status !== 'ready') await this.redisReady(timeoutMs);
    await this.redis.ping();
  }

  /** Resolves when the Redis connection is ready, rejects after `timeoutMs` (never throws for a down Redis at boot). */
  redisReady(timeoutMs: number): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        reject(new Error(`redis not ready within ${timeoutMs} ms`));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once('ready', onReady);
    });
  }

  async close(): Promise<void> {
    await this.queues.close();
    this.redis.disconnect();
    await this.prisma.$disconnect();
  }
}
