import type { PrismaClient } from '../generated/prisma/client.js';
import type { EnvironmentName } from './issuance-records.js';

export interface OutboxEventRecord {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  type: string;
  aggregateId: string;
  payload: unknown;
  createdAt: Date;
  publishedAt: Date | null;
}

/**
 * The transactional outbox (invariant 2): events are appended by the statement of the state change they report
 * (finish-with-event.ts, enter-contingency.ts); this reads them.
 */
export class OutboxRepository {
  constructor(private readonly prisma: PrismaClient) {}

  listForAggregate(aggregateId: string): Promise<OutboxEventRecord[]> {
    return this.prisma.outboxEvent.findMany({ where: { aggregateId }, orderBy: { createdAt: 'asc' } });
  }

  /** Oldest unpublished events first (the webhook dispatcher's feed). */
  listUnpublished(limit: number): Promise<OutboxEventRecord[]> {
    return this.prisma.outboxEvent.findMany({ where: { publishedAt: null }, orderBy: { createdAt: 'asc' }, take: limit });
  }

  async markPublished(ids: readonly string[]): Promise<void> {
    await this.prisma.outboxEvent.updateMany({ where: { id: { in: [...ids] } }, data: { publishedAt: new Date() } });
  }
}
