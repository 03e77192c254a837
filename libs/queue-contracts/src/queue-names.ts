// Queue names are part of the data in Redis: renaming one strands every job already waiting under the old name.
// Add new queues here; never rename or reuse one.
export const QUEUE_NAMES = {
  /** Build, sign, validate and transmit NF-e / DPS (apps/issuer). */
  issuance: 'issuance',
  /** Cancellation, CC-e, inutilização (apps/canceller; arrives with its issue). */
  amendments: 'amendments',
  /** Distribution sync and manifestation (apps/received-sync). */
  received: 'received',
  /** DANFE / DANFSe rendering (apps/pdf-renderer). */
  pdf: 'pdf',
  /** Signed webhook deliveries (apps/webhook-dispatcher). */
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/**
 * BullMQ's key prefix: REDIS_PREFIX (one per test run or deployment) plus "bull", so queues never collide with the
 * gateway's rate-limit or idempotency keys under the same prefix.
 */
export function queueKeyPrefix(redisPrefix: string | undefined): string {
  const base = (redisPrefix ?? '').trim();
  return `${base}bull`;
}
