// Webhook deliveries (issue 17): the relay's fan-out of the outbox, the dispatcher's claim and record of each attempt,
// and the delivery log. PostgreSQL holds the whole state of every delivery (status, attempts, next try), so a Redis
// flush or a killed dispatcher loses nothing: what is due and not running is found here again (listOverdue).
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import { newestFirst, pageWithTotal } from './list-page.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';
import { type AttemptRecord, claimAttempt, recordAttempt } from './webhook-attempt-statements.js';
import type { WebhookScope } from './webhook-endpoints-repository.js';
import { inPoolTransaction, type NewDeliveryRef, type RelayPlan, relayStep } from './webhook-relay-statements.js';

export type { NewDeliveryRef, PlannedDelivery, RelayEndpoint, RelayEvent } from './webhook-relay-statements.js';
export type { AttemptRecord } from './webhook-attempt-statements.js';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'given_up', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  event: string;
  body: string;
  url: string;
  secretSealed: Uint8Array;
  /** This attempt's number (1 = the first). */
  attempt: number;
}

export interface DeliveryListQuery extends WebhookScope {
  status?: WebhookDeliveryStatus;
  event?: string;
  webhookId?: string;
  invoiceId?: string;
  page: number;
  pageSize: number;
}

export interface DeliveryLogRecord {
  id: string;
  endpointId: string;
  eventId: string;
  event: string;
  invoiceId: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  givenUpAt: Date | null;
  createdAt: Date;
  attemptLog: Array<AttemptRecord & { number: number }>;
}

export class WebhookDeliveriesRepository {
  /**
   * `sql`: where the per-attempt statements (claim, record) run; in the dispatcher a coalescing runner on a pg pool
   * (prepared statements; concurrent attempts' claims and records each leave together in one statement).
   * `relayPool`: where the relay's transaction runs, in the dispatcher the same pg pool; else Prisma's interactive
   * transaction.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlRunner = prismaSqlRunner(prisma),
    private readonly relayPool?: pg.Pool,
  ) {}

  /**
   * One relay step, one transaction: takes up to `limit` unpublished outbox events (SKIP LOCKED, so relays on several
   * dispatchers share the work), inserts the deliveries `plan` makes of them, marks them published. Either all of it
   * commits or none: an event is never published without its deliveries. Answers the deliveries it created.
   */
  async relay(limit: number, plan: RelayPlan): Promise<{ events: number; deliveries: NewDeliveryRef[] }> {
    if (this.relayPool) return inPoolTransaction(this.relayPool, (sql) => relayStep(sql, limit, plan));
    return this.prisma.$transaction((tx) => relayStep(prismaSqlRunner(tx), limit, plan));
  }

  /**
   * Takes attempt `attempt` of a pending delivery: only when `attempt - 1` attempts were made, so a duplicate job (a
   * re-drive, a retry requested meanwhile) finds nothing to do. The claim pushes next_attempt_at `leaseMs` ahead: a
   * dispatcher killed mid-attempt leaves a delivery that becomes overdue again and is re-driven.
   */
  async claim(deliveryId: string, attempt: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const row = await claimAttempt(this.sql, { deliveryId, attempt, leaseMs });
    if (!row) return null;
    return {
      id: row.id,
      endpointId: row.endpoint_id,
      event: row.event,
      body: row.body,
      url: row.url,
      secretSealed: row.secret_encrypted,
      attempt: row.attempts,
    };
  }

  /** The attempt's log line and the delivery's new state, together; nothing when the attempt is no longer current. */
  async record(
    deliveryId: string,
    attempt: number,
    log: AttemptRecord,
    next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    await recordAttempt(this.sql, { deliveryId, attempt, ...log, status: next.status, nextAttemptAt: next.nextAttemptAt });
  }

  /** Puts off attempt `attempt` (not made) until `until`: the endpoint has too many attempts in flight. */
  async defer(deliveryId: string, attempt: number, until: Date): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, status: 'pending', attempts: attempt - 1 },
      data: { nextAttemptAt: until },
    });
  }

  /** Pending deliveries whose next try is more than `graceMs` overdue: their job was lost (Redis flush, a kill). */
  async listOverdue(graceMs: number, limit: number): Promise<Array<{ id: string; endpointId: string; attempts: number }>> {
    return this.prisma.webhookDelivery.findMany({
      where: { status: 'pending', nextAttemptAt: { lte: new Date(Date.now() - graceMs) } },
      orderBy: { nextAttemptAt: 'asc' },
      take: limit,
      select: { id: true, endpointId: true, attempts: true },
    });
  }

  async list(query: DeliveryListQuery): Promise<{ total: number; data: DeliveryLogRecord[] }> {
    const where = {
      companyId: query.companyId,
      environment: query.environment,
      ...(query.status ? { status: query.status } : {}),
      ...(query.event ? { event: query.event } : {}),
      ...(query.webhookId ? { endpointId: query.webhookId } : {}),
      ...(query.invoiceId ? { invoiceId: query.invoiceId } : {}),
    };
    return pageWithTotal(
      this.prisma.webhookDelivery.count({ where }),
      this.prisma.webhookDelivery.findMany({
        where,
        ...newestFirst(query),
        omit: { body: true, updatedAt: true, companyId: true, environment: true },
        include: { attemptLog: { orderBy: { number: 'asc' }, omit: { deliveryId: true } } },
      }),
    );
  }

  /**
   * Redeliver now (POST /webhooks/deliveries/{id}/retry): a delivered, given-up or waiting delivery becomes pending
   * with its next try now; answers the attempt number to run, or null when not in the scope or its endpoint is deleted.
   */
  async requestRetry(scope: WebhookScope, id: string): Promise<{ id: string; endpointId: string; attempt: number } | null> {
    const rows = await this.prisma.$queryRawUnsafe<Array<{ id: string; endpoint_id: string; attempts: number }>>(
      `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), given_up_at = NULL, updated_at = now()
       FROM webhook_endpoints e
       WHERE d.id = $1::uuid AND d.company_id = $2::uuid AND d.environment = $3::"Environment" AND e.id = d.endpoint_id AND e.deleted_at IS NULL
       RETURNING d.id, d.endpoint_id, d.attempts`,
      id,
      scope.companyId,
      scope.environment,
    );
    const row = rows[0];
    return row ? { id: row.id, endpointId: row.endpoint_id, attempt: row.attempts + 1 } : null;
  }
}
