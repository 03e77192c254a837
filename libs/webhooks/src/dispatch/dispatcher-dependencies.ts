// The one wiring of the dispatcher side (apps/webhook-dispatcher, its tests and the bench): the database, the
// deliverer behind the SSRF guard, the webhooks queue, the per-endpoint limiter.
import type { Logger } from '@talao/observability';
import {
  CertificateVault,
  coalescingSqlRunner,
  createPrismaClient,
  createSqlPool,
  pgPoolSqlRunner,
  WebhookDeliveriesRepository,
  WebhookEndpointsRepository,
} from '@talao/persistence';
import type { EnqueueTarget } from '@talao/queue-contracts';
import { createWebhookDeliverer } from '../delivery/deliverer.js';
import type { DispatcherDeps } from './dispatcher-deps.js';
import { EndpointLimiter } from './endpoint-limiter.js';

/** What the wiring reads; the dispatcher's config (fragments of @talao/config) has this shape. */
export interface DispatcherSettings {
  database: { url: string };
  certificates: { encryptionKey: string };
  webhookTargets: { allowLoopback: boolean };
  webhooks: {
    timeoutMs: number;
    retryBaseDelayMs: number;
    relayBatchSize: number;
    sweepGraceMs: number;
    maxInFlightPerEndpoint: number;
  };
  worker: { concurrency: number };
}

/** Claims (records) of concurrent attempts per statement at most, and such statements running at once. */
const ATTEMPT_BATCHING = { maxBatch: 64, maxInFlight: 2 };

export interface DispatcherDependencies extends DispatcherDeps {
  readonly checks: { database: () => Promise<unknown> };
  close(): Promise<void>;
}

export function createWebhookDispatcherDependencies(
  settings: DispatcherSettings,
  context: { queue: EnqueueTarget; logger: Logger; productVersion?: string },
): DispatcherDependencies {
  // Each attempt's claim and record are prepared statements on a pg pool (parsed and planned once per connection:
  // they run twice per delivery), and the claims (records) of the attempts running together leave as one statement:
  // at most ATTEMPT_BATCHING.maxInFlight of each at once, so a few connections serve any concurrency. The relay's
  // transaction runs on the same pool (prepared statements too); the sweep and the rare put-off go through Prisma.
  const prisma = createPrismaClient(settings.database.url, { poolMax: 4 });
  const pool = createSqlPool(settings.database.url, 2 * ATTEMPT_BATCHING.maxInFlight + 2);
  // An idle connection dropped by the server is replaced on the next query; nothing to crash over.
  pool.on('error', (error: Error) => context.logger.warn({ error: error.message }, 'postgres pool connection error'));
  const deliverer = createWebhookDeliverer({
    productVersion: context.productVersion ?? '0.1.0',
    policy: { allowLoopback: settings.webhookTargets.allowLoopback },
    timeoutMs: settings.webhooks.timeoutMs,
  });
  return {
    deliveries: new WebhookDeliveriesRepository(prisma, coalescingSqlRunner(pgPoolSqlRunner(pool), ATTEMPT_BATCHING), pool),
    endpoints: new WebhookEndpointsRepository(prisma, new CertificateVault(settings.certificates.encryptionKey)),
    deliverer,
    queues: { webhooks: context.queue },
    limiter: new EndpointLimiter(settings.webhooks.maxInFlightPerEndpoint),
    logger: context.logger,
    settings: { ...settings.webhooks, sweepBatchSize: 1_000 },
    checks: { database: () => prisma.$queryRaw`SELECT 1` },
    async close() {
      await deliverer.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
