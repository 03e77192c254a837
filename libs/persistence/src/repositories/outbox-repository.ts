import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { DbClient, EnvironmentName } from './issuance-records.js';

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

/** The transactional outbox (invariant 2): events are appended in the transaction of the state change they report. */
export class OutboxRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async append(tx: DbClient, event: { companyId: string; environment: EnvironmentName; type: string; aggregateId: string; payload: Record<string, unknown> }): Promise<void> {
    // JSON-safe by construction (strings, numbers, null): the payloads are built from database values.
    await tx.outboxEvent.create({ data: { ...event, payload: event.payload as Prisma.InputJsonObject } });
  }

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
