// Webhook deliveries (issue 17): the relay's fan-out of the outbox, the dispatcher's claim and record of each attempt,
// and the delivery log. PostgreSQL holds the whole state of every delivery (status, attempts, next try), so a Redis
// flush or a killed dispatcher loses nothing: what is due and not running is found here again (listOverdue).
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { EnvironmentName } from './issuance-records.js';
import { prismaSqlRunner, type SqlRunner } from './sql-runner.js';
import { claimAttempt, recordAttempt } from './webhook-attempt-statements.js';
import type { WebhookScope } from './webhook-endpoints-repository.js';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'given_up', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An outbox event as the relay reads it, with the invoice it reports on (null when the aggregate is no invoice). */
export interface RelayEvent {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  invoice: { id: string; documentType: 'nfe' | 'nfse'; accessKey: string | null; dpsId: string | null; amount: string } | null;
  /** The W3C traceparent the event was written under (tracing on), null otherwise. */
  traceParent: string | null;
}

export interface RelayEndpoint {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  events: string[];
}

/** One delivery the relay's plan asks for: this event's body for this endpoint. */
export interface PlannedDelivery {
  event: RelayEvent;
  endpointId: string;
  body: string;
}

export interface NewDeliveryRef {
  id: string;
  endpointId: string;
  /** Its event's traceparent: the first attempt is enqueued in that trace. */
  traceParent: string | null;
}

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

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  result: string;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
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

const RELAY_EVENTS = `SELECT o.id, o.company_id, o.environment::text AS environment, o.type, o.payload, o.created_at, o.trace_parent,
       i.id AS invoice_id, i.document_type::text AS document_type, i.access_key, i.dps_id, i.total_amount::text AS amount
FROM outbox_events o LEFT JOIN invoices i ON i.id = o.aggregate_id
WHERE o.published_at IS NULL
ORDER BY o.created_at
LIMIT $1
FOR UPDATE OF o SKIP LOCKED`;

const INSERT_DELIVERIES = `INSERT INTO webhook_deliveries (id, endpoint_id, company_id, environment, event_id, event, invoice_id, body, next_attempt_at)
SELECT d.id, d.endpoint_id, d.company_id, d.environment::"Environment", d.event_id, d.event, d.invoice_id, d.body, now()
FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::varchar[], $7::uuid[], $8::text[])
  AS d(id, endpoint_id, company_id, environment, event_id, event, invoice_id, body)
ON CONFLICT (event_id, endpoint_id) DO NOTHING
RETURNING id, endpoint_id, event_id`;

export class WebhookDeliveriesRepository {
  /**
   * `sql`: where the per-attempt statements (claim, record) run; in the dispatcher a coalescing runner on a pg pool
   * (prepared statements; concurrent attempts' claims and records each leave together in one statement).
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlRunner = prismaSqlRunner(prisma),
  ) {}

  /**
   * One relay step, one transaction: takes up to `limit` unpublished outbox events (SKIP LOCKED, so relays on several
   * dispatchers share the work), inserts the deliveries `plan` makes of them, marks them published. Either all of it
   * commits or none: an event is never published without its deliveries. Answers the deliveries it created.
   */
  async relay(
    limit: number,
    plan: (events: RelayEvent[], endpoints: RelayEndpoint[]) => PlannedDelivery[],
  ): Promise<{ events: number; deliveries: NewDeliveryRef[] }> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<Array<Record<string, unknown>>>(RELAY_EVENTS, limit);
      if (rows.length === 0) return { events: 0, deliveries: [] };
      const events: RelayEvent[] = rows.map((row) => ({
        id: row['id'] as string,
        companyId: row['company_id'] as string,
        environment: row['environment'] as EnvironmentName,
        type: row['type'] as string,
        payload: (row['payload'] ?? {}) as Record<string, unknown>,
        createdAt: row['created_at'] as Date,
        invoice: row['invoice_id']
          ? {
              id: row['invoice_id'] as string,
              documentType: row['document_type'] as 'nfe' | 'nfse',
              accessKey: row['access_key'] as string | null,
              dpsId: row['dps_id'] as string | null,
              amount: row['amount'] as string,
            }
          : null,
        traceParent: (row['trace_parent'] as string | null) ?? null,
      }));
      const companies = [...new Set(events.map((event) => event.companyId))];
      const endpoints = (await tx.webhookEndpoint.findMany({
        where: { companyId: { in: companies }, deletedAt: null },
        select: { id: true, companyId: true, environment: true, events: true },
      })) as RelayEndpoint[];
      const planned = plan(events, endpoints);
      let created: NewDeliveryRef[] = [];
      if (planned.length > 0) {
        const column = <T>(of: (d: PlannedDelivery) => T) => planned.map(of);
        const inserted = await tx.$queryRawUnsafe<Array<{ id: string; endpoint_id: string; event_id: string }>>(
          INSERT_DELIVERIES,
          column(() => randomUUID()),
          column((d) => d.endpointId),
          column((d) => d.event.companyId),
          column((d) => d.event.environment),
          column((d) => d.event.id),
          column((d) => d.event.type),
          column((d) => d.event.invoice!.id),
          column((d) => d.body),
        );
        const traceParents = new Map(events.map((event) => [event.id, event.traceParent]));
        created = inserted.map((row) => ({ id: row.id, endpointId: row.endpoint_id, traceParent: traceParents.get(row.event_id) ?? null }));
      }
      await tx.$executeRawUnsafe(
        `UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])`,
        events.map((e) => e.id),
      );
      return { events: events.length, deliveries: created };
    });
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
    const [total, rows] = await this.prisma.$transaction([
      this.prisma.webhookDelivery.count({ where }),
      this.prisma.webhookDelivery.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip: (query.page - 1) * query.pageSize,
        take: query.pageSize,
        omit: { body: true, updatedAt: true, companyId: true, environment: true },
        include: { attemptLog: { orderBy: { number: 'asc' }, omit: { deliveryId: true } } },
      }),
    ]);
    return { total, data: rows };
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
