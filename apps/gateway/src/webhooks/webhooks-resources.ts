// What the webhook routes use: the endpoints and deliveries repositories on the gateway's Prisma client, the target
// policy (WEBHOOK_ALLOW_LOOPBACK, off unless a local run turns it on) and a producer on the webhooks queue, so a retry
// requested by the API is sent at once (with Redis away it is still sent: the dispatcher's sweep finds it).
import type { OnApplicationShutdown } from '@nestjs/common';
import { type Environment, type GatewayConfig, loadConfig, webhookTargetConfig } from '@talao/config';
import { CertificateVault, WebhookDeliveriesRepository, WebhookEndpointsRepository } from '@talao/persistence';
import { queueTelemetry } from '@talao/observability';
import { bullJobOptions, jobOptionsFor, QUEUE_NAMES, queueKeyPrefix } from '@talao/queue-contracts';
import type { TargetPolicy } from '@talao/webhooks';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { GatewayResources } from '../gateway-resources.js';

export class WebhooksResources implements OnApplicationShutdown {
  readonly endpoints: WebhookEndpointsRepository;
  readonly deliveries: WebhookDeliveriesRepository;
  readonly policy: TargetPolicy;
  readonly queue: Queue;
  private readonly redis: Redis;
  private shuttingDown = false;

  constructor(gatewayConfig: GatewayConfig, gateway: GatewayResources, env: Environment = process.env) {
    this.policy = loadConfig({ targets: webhookTargetConfig }, env).targets;
    this.endpoints = new WebhookEndpointsRepository(gateway.prisma, new CertificateVault(gatewayConfig.certificateEncryptionKey));
    this.deliveries = new WebhookDeliveriesRepository(gateway.prisma);
    // Fail fast when Redis is away (the retry is already in PostgreSQL); give up reconnecting once shutting down.
    this.redis = new Redis(gatewayConfig.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => (this.shuttingDown ? null : Math.min(attempt * 50, 2_000)),
    });
    this.redis.on('error', () => undefined); // reported by GatewayResources' connection and readiness
    this.queue = new Queue(QUEUE_NAMES.webhooks, {
      connection: this.redis,
      prefix: queueKeyPrefix(gatewayConfig.redisPrefix),
      telemetry: queueTelemetry(),
      defaultJobOptions: bullJobOptions(jobOptionsFor(QUEUE_NAMES.webhooks)),
    });
    this.queue.on('error', () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.race([this.queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    this.redis.disconnect();
  }
}
